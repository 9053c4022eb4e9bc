import type { SchedulerLike } from 'rxjs';
import type { ReleasableTimer } from '../core/system-time.js';
import { releasableTimers } from '../core/system-time.js';

/** A deadline of a `DeadlineList`; `cancel()` it once it no longer matters. */
export interface Deadline {
  cancel(): void;
}

/** Where the list's one action runs: its clock and a one-shot timer. */
interface Timers {
  now(): number;
  start(fire: () => void, ms: number): ReleasableTimer;
}

/** A scheduler's action as a timer (virtual time in tests): it cannot let the process go, so `hold` does nothing. */
function schedulerTimers(scheduler: SchedulerLike): Timers {
  return {
    now: () => scheduler.now(),
    start(fire, ms) {
      const subscription = scheduler.schedule(fire, ms);
      return { cancel: () => subscription.unsubscribe(), hold: () => undefined };
    },
  };
}

class Entry implements Deadline {
  done = false;
  constructor(
    private readonly list: DeadlineList,
    readonly at: number,
    readonly fire: () => void,
  ) {}

  cancel(): void {
    if (this.done) return;
    this.done = true;
    this.list.cancelled();
  }
}

/** More entries than this, most of them cancelled: the list is compacted at a cancel. */
const COMPACT_AT = 64;

/**
 * Many deadlines on one timer: adding or cancelling one is an array push or a flag, where a timer each
 * (a setInterval and a clearInterval through rxjs's asyncScheduler) cost a request more than its socket
 * write. The timer runs at the earliest deadline; cancelled entries are dropped then. Deadlines fire
 * in the order they fall due, never early.
 *
 * On real timers (no scheduler given) the timer is kept over idle gaps: when the last live deadline is
 * cancelled the timer stays armed but released (Node's `unref`: it holds no process up), and the next
 * deadline takes it again; it goes when it fires with nothing live, at most one deadline's length after
 * the last request. One caller sending request after request so starts a timer per timeout's length,
 * not per request. On a scheduler (virtual time) the timer goes as soon as nothing is live, as a
 * scheduler's action cannot be released.
 */
export class DeadlineList {
  private entries: Entry[] = [];
  /** Entries neither fired nor cancelled. */
  private live = 0;
  private armed: { readonly at: number; readonly timer: ReleasableTimer } | undefined;
  private readonly timers: Timers;
  /** Real timers: the armed timer outlives an idle moment, released while nothing is live. */
  private readonly keepsIdleTimer: boolean;

  /** `scheduler`: where the deadlines run (virtual time); none: the process's real timers. */
  constructor(scheduler?: SchedulerLike) {
    this.keepsIdleTimer = scheduler === undefined;
    this.timers = scheduler === undefined ? releasableTimers : schedulerTimers(scheduler);
  }

  /** Calls `fire` `ms` from now, unless cancelled first. */
  add(ms: number, fire: () => void): Deadline {
    const entry = new Entry(this, this.timers.now() + ms, fire);
    if (this.live++ === 0 && this.armed !== undefined) this.armed.timer.hold(true);
    this.entries.push(entry);
    if (this.armed === undefined || entry.at < this.armed.at) this.arm(entry.at);
    return entry;
  }

  /** Stops the timer; pending deadlines never fire (and cancelling them later is harmless). */
  clear(): void {
    this.armed?.timer.cancel();
    this.armed = undefined;
    for (const entry of this.entries) entry.done = true;
    this.entries = [];
    this.live = 0;
  }

  /** An entry's cancel: the last live one releases the timer (real timers) or stops it. */
  cancelled(): void {
    if (--this.live > 0) {
      if (this.entries.length > COMPACT_AT && this.entries.length > 4 * this.live) this.entries = this.entries.filter((entry) => !entry.done);
      return;
    }
    // Every entry is done: none needs keeping.
    this.entries = [];
    this.idle();
  }

  /** Nothing is live: the armed timer is released (real timers) or stopped. */
  private idle(): void {
    if (this.armed === undefined) return;
    if (this.keepsIdleTimer) {
      this.armed.timer.hold(false);
    } else {
      this.armed.timer.cancel();
      this.armed = undefined;
    }
  }

  private arm(at: number): void {
    this.armed?.timer.cancel();
    this.armed = { at, timer: this.timers.start(() => this.check(), Math.max(0, at - this.timers.now())) };
  }

  private check(): void {
    this.armed = undefined;
    if (this.live === 0) {
      // A kept timer that met no live deadline: the client has been idle, and the timer goes.
      this.entries = [];
      return;
    }
    const now = this.timers.now();
    const due: Entry[] = [];
    const pending: Entry[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.entries) {
      if (entry.done) continue;
      if (entry.at <= now) due.push(entry);
      else {
        pending.push(entry);
        if (entry.at < next) next = entry.at;
      }
    }
    this.entries = pending;
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
    due.sort((a, b) => a.at - b.at);
    for (const entry of due) {
      if (entry.done) continue;
      entry.done = true;
      this.live--;
      entry.fire();
    }
    // The last live one fired while a timer armed since waits (a fire that added a deadline and cancelled it).
    if (this.live === 0) this.idle();
  }
}
