import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import type { Clock, TimeSource } from './clock.js';

/** A VirtualClock's action: counts its runs on the clock (`executed`). */
class CountedAction<T> extends VirtualAction<T> {
  protected override _execute(state: T, delay: number): unknown {
    if (this.scheduler instanceof VirtualClock) this.scheduler.executed++;
    return super._execute(state, delay);
  }
}

/**
 * Virtual time for tests and backtests: a scheduler whose `now()` is epoch ms that only moves when
 * told to, running every action that falls due on the way.
 */
export class VirtualClock extends VirtualTimeScheduler implements Clock, TimeSource {
  readonly clock: Clock = this;
  readonly scheduler = this;
  /** Scheduled actions run so far (a backtest tells from it whether an instant ran only actions it knows). */
  executed = 0;

  constructor(startMs = 1_767_225_600_000) {
    super(CountedAction, Infinity);
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
