import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import type { Clock, TimeSource } from './clock.js';

/**
 * Virtual time for tests and backtests: a scheduler whose `now()` is epoch ms that only moves when
 * told to, running every action that falls due on the way.
 */
export class VirtualClock extends VirtualTimeScheduler implements Clock, TimeSource {
  readonly clock: Clock = this;
  readonly scheduler = this;

  constructor(startMs = 1_767_225_600_000) {
    super(VirtualAction, Infinity);
    this.frame = startMs;
  }

  /** Moves time to `targetMs`, running due actions in time order. */
  advanceTo(targetMs: number): void {
    if (targetMs < this.frame) return;
    this.maxFrames = targetMs;
    this.flush();
    this.maxFrames = Infinity;
    this.frame = targetMs;
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.frame + ms);
  }

  /** Number of actions waiting to run. */
  pending(): number {
    return this.actions.length;
  }
}
