import { InvariantError } from '../core/errors.js';
import type { VirtualClock } from '../core/virtual-time.js';
import type { RecordingFeed } from '../recording/feed.js';

/** Lets every pending promise continuation run: one turn of the event loop (no time is read or waited for). */
export function macrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Lets every promise continuation already queued run, and those they queue in turn, without a turn of
 * the event loop: Node runs a tick callback only once the microtask queue is empty.
 */
export function continuationsRun(): Promise<void> {
  return new Promise((resolve) => process.nextTick(resolve));
}

const MAX_TURNS_PER_INSTANT = 16;

/**
 * What a backtest tells the driver of its work: methods of one object (the backtest's is of a class, so
 * the same functions in every backtest a sweep runs in a thread, not closures each).
 */
export interface DriverWork {
  /**
   * Whether promise continuations may be pending though no scheduled action ran (async strategy
   * handlers, a port without latency): the step then yields to the event loop before the next one.
   */
  mustYield(): boolean;
  /**
   * How many scheduled actions have run so far that are known to run synchronously and start nothing
   * that waits on a promise (equity samples, the daily reset, the kernel's tick): an instant whose due
   * actions are all such is handled as one of market events alone (`stepNow`). Without it, every instant
   * with an action due takes a `step`.
   */
  quietActions?(): number;
}

export interface VirtualDriverOptions {
  readonly clock: VirtualClock;
  /** The engine: `advanceTo` applies the feed's events due by then. */
  readonly engine: { advanceTo(time: number): void };
  readonly feed: RecordingFeed;
  /** The backtest's pending work. */
  readonly work: DriverWork;
  /** The port answers without latency: turn the event loop before every step. */
  readonly instantReplies: boolean;
}

/**
 * Moves a backtest through virtual time one instant at a time: the next instant is the earliest of
 * the next scheduled action (port deliveries and replies, account events, timers, equity samples) and
 * the next market event. At each instant the actions due run first (a command reaching the engine
 * first pulls the market events due by then, as `stratd sim` does on each request), then the
 * remaining market events of that instant are applied; then, when anything asynchronous may be
 * waiting, the event loop turns once so replies are handled before time moves on.
 */
export class VirtualDriver {
  // The options' values as fields of their own, not the options object read through: an object literal
  // made once per backtest gets its boilerplate in the process's second backtest, which widens its
  // fields' types and deoptimized every driver method optimized in the first.
  private readonly clock: VirtualClock;
  private readonly engine: VirtualDriverOptions['engine'];
  private readonly feed: RecordingFeed;
  private readonly work: DriverWork;
  private readonly instantReplies: boolean;

  constructor(options: VirtualDriverOptions) {
    ({ clock: this.clock, engine: this.engine, feed: this.feed, work: this.work, instantReplies: this.instantReplies } = options);
  }

  /** Time of the earliest scheduled action. */
  nextActionTime(): number | undefined {
    return this.clock.actions[0]?.delay;
  }

  /** One instant, if something is due at or before `limit()` (asked once the feed's next events are known); false when nothing is. */
  async step(limit: () => number): Promise<boolean> {
    const { clock, engine, feed } = this;
    // Without latency a reply resolves as a promise continuation at the instant of its call, and its
    // command may be known already (the stream event came first): nothing tells that it waits, so turn.
    if (this.instantReplies) await macrotask();
    await this.settle();
    if (!feed.covers(Number.NEGATIVE_INFINITY)) await feed.load(Number.NEGATIVE_INFINITY);
    const actionTime = this.nextActionTime();
    const time = Math.min(feed.peekTime() ?? Number.POSITIVE_INFINITY, actionTime ?? Number.POSITIVE_INFINITY);
    if (!(time <= limit())) return false;
    if (!feed.covers(time)) await feed.load(time);
    clock.advanceTo(time);
    engine.advanceTo(time);
    if ((actionTime !== undefined && actionTime <= time) || this.work.mustYield()) await macrotask();
    await this.settle();
    return true;
  }

  /**
   * The next instant at once, when it is market events only (or also actions `quietActions` counts) and
   * nothing can be waiting: no reply comes without latency, nothing asynchronous is pending
   * (`mustYield`) and the feed holds the events. `step` would neither turn the event loop nor find
   * anything to settle there, so a replay of market data moves through such instants without a promise
   * each. Answers 'none' when the next instant needs `step` (or nothing is due by `limit()`), 'done' when
   * it was handled, and 'waiting' when it left work pending or ran an action not known to be quiet:
   * `finishInstant` then turns the loop as `step` would.
   */
  stepNow(limit: () => number): 'none' | 'done' | 'waiting' {
    const { clock, engine, feed, work } = this;
    if (this.instantReplies || work.mustYield()) return 'none';
    const feedTime = feed.peekTime();
    if (feedTime === undefined || !feed.covers(feedTime)) return 'none';
    const actionTime = this.nextActionTime();
    const actionDue = actionTime !== undefined && actionTime <= feedTime;
    if (actionDue && work.quietActions === undefined) return 'none';
    const time = actionDue ? actionTime : feedTime;
    if (!(time <= limit())) return 'none';
    if (!actionDue) {
      // Market events alone (most instants of a replay): nothing to count.
      clock.advanceTo(time);
      engine.advanceTo(time);
      return work.mustYield() ? 'waiting' : 'done';
    }
    const executed = clock.executed;
    const quiet = work.quietActions?.() ?? 0;
    clock.advanceTo(time);
    engine.advanceTo(time);
    // An action not known to be quiet may have left a promise continuation waiting: turn the loop.
    if (clock.executed - executed !== (work.quietActions?.() ?? 0) - quiet) return 'waiting';
    return work.mustYield() ? 'waiting' : 'done';
  }

  /**
   * After `stepNow` answered 'waiting': the turn of the event loop `step` ends an instant with (a tick
   * runs once every continuation queued before it has run). Then `settleLeft`. Two calls, not one async
   * method: a waiting instant (~16,000 a sample run) then costs one promise, not an async frame too.
   */
  finishInstant(): Promise<void> {
    return continuationsRun();
  }

  /** After `finishInstant`: the settling `step` ends an instant with, when anything still waits (rarely); undefined when nothing does. */
  settleLeft(): Promise<void> | undefined {
    return this.work.mustYield() ? this.settle() : undefined;
  }

  /**
   * A reply's continuation can take more than one turn (a handler awaiting a reply awaiting a journal
   * write…): time moves on only once nothing waits at this instant any more (bounded: work waiting for a
   * later instant stays pending).
   */
  private async settle(): Promise<void> {
    for (let turns = 0; turns < MAX_TURNS_PER_INSTANT && this.work.mustYield(); turns++) await macrotask();
  }

  /** Steps until `work` settles (kernel start and stop wait for port replies that take virtual time). */
  async until<T>(work: Promise<T>, limit: () => number): Promise<T> {
    let settled = false;
    const outcome = work.finally(() => {
      settled = true;
    });
    outcome.catch(() => undefined);
    await macrotask();
    while (!settled) {
      if (await this.step(limit)) continue;
      await macrotask();
      if (!settled) throw new InvariantError('BACKTEST_STALLED', 'waiting for the kernel, but nothing is scheduled in virtual time any more');
    }
    return outcome;
  }
}
