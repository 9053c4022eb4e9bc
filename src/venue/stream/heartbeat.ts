import type { Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';

export interface HeartbeatOptions {
  readonly intervalMs: number;
  readonly timeoutMs: number;
}

/**
 * The client heartbeat of the user stream (API-NOTES §7): `{"ping":<clock ms>}` every `intervalMs`; when no
 * pong arrives within `timeoutMs` of a ping, `onTimeout` runs once and the heartbeat stops.
 */
export class Heartbeat {
  private pingTimer: Subscription | undefined;
  private deadline: Subscription | undefined;
  private running = false;

  constructor(
    private readonly time: TimeSource,
    private readonly options: HeartbeatOptions,
    private readonly send: (text: string) => void,
    private readonly onTimeout: () => void,
  ) {}

  start(): void {
    this.stop();
    this.running = true;
    this.schedulePing();
  }

  /** Any pong clears the deadline (live pongs carry the server clock, not the echoed number). */
  pong(): void {
    this.deadline?.unsubscribe();
    this.deadline = undefined;
  }

  stop(): void {
    this.running = false;
    this.pingTimer?.unsubscribe();
    this.pingTimer = undefined;
    this.pong();
  }

  // Each ping is a new top-level action: rescheduling from inside an action nests on VirtualTimeScheduler.
  private schedulePing(): void {
    this.pingTimer = this.time.scheduler.schedule(() => this.ping(), this.options.intervalMs);
  }

  private ping(): void {
    if (!this.running) return;
    this.send(JSON.stringify({ ping: this.time.clock.now() }));
    this.deadline ??= this.time.scheduler.schedule(() => this.expire(), this.options.timeoutMs);
    this.schedulePing();
  }

  private expire(): void {
    this.deadline = undefined;
    if (!this.running) return;
    this.stop();
    this.onTimeout();
  }
}

/** A session's heartbeat timings from its options: a ping every 20 s, a pong due within 10 s (API-NOTES §7, §8). */
export function heartbeatTimings(options: { readonly pingIntervalMs?: number; readonly pongTimeoutMs?: number }): HeartbeatOptions {
  return { intervalMs: options.pingIntervalMs ?? 20_000, timeoutMs: options.pongTimeoutMs ?? 10_000 };
}
