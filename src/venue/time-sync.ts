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
 * The server's clock: several round trips to /api/v1/time, each giving serverTime minus the midpoint of
 * the round trip; the median is kept and refreshed periodically. The estimate runs on a steady clock
 * (`TimeSource.steady`), not the wall clock, so a step of the local clock (NTP, a resumed VM) moves neither request
 * timestamps nor the exchange times snapshots are stamped with; `offset` (server minus local wall
 * clock) shows such a step at once.
 */
export class TimeSync {
  /** Server time minus the steady clock's reading (before the first sync, the local wall clock's). */
  private baseMs: number;
  private synced = false;
  private lastSyncAt: number | undefined;
  private timer: Subscription | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly scheduler: SchedulerLike,
    private readonly probe: ServerTimeProbe,
    private readonly options: TimeSyncOptions = DEFAULT_TIME_SYNC,
    private readonly steady: Clock = clock,
  ) {
    this.baseMs = clock.now() - steady.now();
  }

  /** Server clock minus the local wall clock, ms. */
  get offset(): number {
    return Math.round(this.steady.now() + this.baseMs - this.clock.now());
  }

  /**
   * What the server-time estimate is anchored on; it changes only with a sync. An estimate taken before a
   * re-sync is moved onto the new one by adding the difference of the two anchors.
   */
  get anchor(): number {
    return this.baseMs;
  }

  get isSynced(): boolean {
    return this.synced;
  }

  get lastSync(): number | undefined {
    return this.lastSyncAt;
  }

  /** Server-adjusted now, for request timestamps. */
  serverNow(): number {
    return Math.round(this.steady.now() + this.baseMs);
  }

  serverToLocal(serverMs: number): number {
    return serverMs - this.offset;
  }

  async sync(): Promise<Result<number, VenueError>> {
    const offsets: number[] = [];
    let lastError: VenueError | undefined;
    for (let i = 0; i < this.options.samples; i++) {
      const sentAt = this.steady.now();
      const reply = await this.probe();
      const receivedAt = this.steady.now();
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
    this.baseMs = median;
    this.synced = true;
    this.lastSyncAt = this.clock.now();
    return ok(this.offset);
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
