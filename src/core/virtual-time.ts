import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import type { Clock, TimeSource } from './clock.js';
import { emptyObjectArray } from './empty-arrays.js';

/** What orders a queued action: its due time, then its creation index (rxjs's VirtualAction fields). */
interface Ordered {
  readonly delay: number;
  readonly index: number;
}

/**
 * A VirtualClock's action: counts its runs on the clock (`executed`), and enters the queue at its place
 * by binary search where rxjs's VirtualAction pushes and sorts the whole queue (`Array.prototype.sort`
 * allocates its work arrays on every call: a replay schedules an action per second of virtual time).
 * The queue is sorted between insertions (actions leave it by `shift` and `splice` only), so the
 * insertion gives the order the sort gave: due time, then index.
 */
class CountedAction<T> extends VirtualAction<T> {
  protected override _execute(state: T, delay: number): unknown {
    if (this.scheduler instanceof VirtualClock) this.scheduler.executed++;
    return super._execute(state, delay);
  }

  protected override requestAsyncId(scheduler: VirtualTimeScheduler, _id?: unknown, delay = 0): 1 {
    this.delay = scheduler.frame + delay;
    const actions = scheduler.actions as unknown as Ordered[];
    const due = this.delay;
    const index = this.index;
    let low = 0;
    let high = actions.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = actions[mid]!;
      if (other.delay < due || (other.delay === due && other.index <= index)) low = mid + 1;
      else high = mid;
    }
    if (low === actions.length) scheduler.actions.push(this);
    else scheduler.actions.splice(low, 0, this);
    return 1;
  }
}

/**
 * A VirtualClock's `now`: one function for every clock. rxjs gives each scheduler a closure of its own,
 * so hot `clock.now()` sites optimized in one run of a sweep deoptimize ("wrong call target") in the next.
 */
function frameNow(this: VirtualClock): number {
  return this.frame;
}

/**
 * Virtual time for tests and backtests: a scheduler whose `now()` is epoch ms that only moves when
 * told to, running every action that falls due on the way.
 */
export class VirtualClock extends VirtualTimeScheduler implements Clock, TimeSource {
  /** Itself, as a getter: a field holding the object made each backtest's clock widen its field type in the next one, deoptimizing every reader of `time.clock`. */
  get clock(): Clock {
    return this;
  }

  get scheduler(): this {
    return this;
  }

  /** Scheduled actions run so far (a backtest tells from it whether an instant ran only actions it knows). */
  executed = 0;

  constructor(startMs = 1_767_225_600_000) {
    super(CountedAction, Infinity);
    this.now = frameNow;
    this.actions = emptyObjectArray();
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
