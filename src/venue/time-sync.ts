import type { SchedulerLike, Subscription } from 'rxjs';
import type { Clock } from '../core/clock.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { VenueError } from './venue-error.js';

export interface TimeSyncOptions {
  /** Samples per sync; the median offset is used. */
  readonly samples: number;
  /** Re-sync period. */
  readonly refreshMs: number;
}

export const DEFAULT_TIME_SYNC: TimeSyncOptions = { samples: 5, refreshMs: 10 * 60_000 };

/** Reads the server's clock once (GET /api/v1/time). */
export type ServerTimeProbe = () => Promise<Result<number, VenueError>>;

/**
 * Server clock offset: several round trips to /api/v1/time, each giving serverTime minus the local
 * midpoint of the round trip; the median is kept and refreshed periodically.
 */
export class TimeSync {
  private offsetMs = 0;
  private synced = false;
  private lastSyncAt: number | undefined;
  private timer: Subscription | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly scheduler: SchedulerLike,
    private readonly probe: ServerTimeProbe,
    private readonly options: TimeSyncOptions = DEFAULT_TIME_SYNC,
  ) {}

  get offset(): number {
    return this.offsetMs;
  }

  get isSynced(): boolean {
    return this.synced;
  }

  get lastSync(): number | undefined {
    return this.lastSyncAt;
  }

  /** Server-adjusted now, for request timestamps. */
  serverNow(): number {
    return Math.round(this.clock.now() + this.offsetMs);
  }

  serverToLocal(serverMs: number): number {
    return serverMs - this.offsetMs;
  }

  async sync(): Promise<Result<number, VenueError>> {
    const offsets: number[] = [];
    let lastError: VenueError | undefined;
    for (let i = 0; i < this.options.samples; i++) {
      const sentAt = this.clock.now();
      const reply = await this.probe();
      const receivedAt = this.clock.now();
      if (!reply.ok) {
        lastError = reply.error;
        continue;
      }
      offsets.push(reply.value - (sentAt + receivedAt) / 2);
    }
    if (offsets.length === 0) return err(lastError as VenueError);
    offsets.sort((a, b) => a - b);
    const mid = Math.floor(offsets.length / 2);
    const median = offsets.length % 2 === 1 ? (offsets[mid] ?? 0) : ((offsets[mid - 1] ?? 0) + (offsets[mid] ?? 0)) / 2;
    this.offsetMs = Math.round(median);
    this.synced = true;
    this.lastSyncAt = this.clock.now();
    return ok(this.offsetMs);
  }

  /** Re-syncs every `refreshMs` on the scheduler; failures keep the last offset. */
  start(onError: (error: VenueError) => void = () => undefined): void {
    this.stop();
    const run = (): void => {
      void this.sync().then((r) => {
        if (!r.ok) onError(r.error);
      });
    };
    const refresh = this.options.refreshMs;
    // Each refresh is a fresh top-level action: a self-rescheduling action nests on VirtualTimeScheduler.
    const loop = (): void => {
      run();
      this.timer = this.scheduler.schedule(loop, refresh);
    };
    this.timer = this.scheduler.schedule(loop, refresh);
  }

  stop(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
  }
}
