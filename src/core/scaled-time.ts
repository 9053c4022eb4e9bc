import { performance } from 'node:perf_hooks';
import { asyncScheduler, Subscription } from 'rxjs';
import type { SchedulerAction, SchedulerLike } from 'rxjs';
import type { Clock, TimeSource } from './clock.js';

/** The fastest time runs: beyond this the poller and the market cannot keep up on any machine. */
export const MAX_TIME_SCALE = 1000;

/**
 * The second adapter onto the wall clock and real timers: accelerated time for soak runs of the paper
 * daemon. Epoch ms = the wall clock at creation + real time elapsed × `factor` (monotonic, whole
 * milliseconds); every delay handed to the scheduler is divided by `factor`, so a 1 s poll waits
 * 10 ms of real time at ×100. Only composition roots use it, and only against the embedded simulator,
 * which shares it: a real exchange keeps real time.
 */
export class ScaledTime implements TimeSource {
  readonly clock: Clock;
  readonly scheduler: SchedulerLike;
  /** Epoch ms at creation (market time starts here). */
  readonly startMs: number;
  /** Latency figures stay in real milliseconds: the machine's speed does not scale. */
  readonly stopwatch = { now: (): number => performance.now() };

  constructor(
    readonly factor: number,
    base: SchedulerLike = asyncScheduler,
  ) {
    if (!(Number.isFinite(factor) && factor > 0 && factor <= MAX_TIME_SCALE)) throw new RangeError(`time scale must be a number in (0, ${MAX_TIME_SCALE}], got ${factor}`);
    const startMs = base.now();
    const startReal = performance.now();
    this.startMs = startMs;
    let last = startMs;
    const now = (): number => {
      // Never backwards, whole milliseconds (timestamps are signed and compared as integers).
      last = Math.max(last, startMs + Math.floor((performance.now() - startReal) * factor));
      return last;
    };
    this.clock = { now };
    this.scheduler = new ScaledScheduler(base, factor, now);
  }
}

/** An RxJS scheduler whose delays are `factor` times shorter in real time than they say. */
class ScaledScheduler implements SchedulerLike {
  constructor(
    private readonly base: SchedulerLike,
    private readonly factor: number,
    readonly now: () => number,
  ) {}

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    return new ScaledAction<T>(this.base, this.factor, work).schedule(state, delay);
  }
}

/** One scheduled piece of work; `this.schedule` inside the work reschedules it, as on RxJS's own schedulers. */
class ScaledAction<T> extends Subscription implements SchedulerAction<T> {
  private pending: Subscription | undefined;

  constructor(
    private readonly base: SchedulerLike,
    private readonly factor: number,
    private readonly work: (this: SchedulerAction<T>, state?: T) => void,
  ) {
    super();
    this.add(() => {
      this.pending?.unsubscribe();
      this.pending = undefined;
    });
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.pending?.unsubscribe();
    this.pending = this.base.schedule(() => {
      this.pending = undefined;
      if (!this.closed) this.work.call(this, state);
    }, Math.max(0, delay) / this.factor);
    return this;
  }
}
