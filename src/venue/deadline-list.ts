import type { SchedulerLike, Subscription } from 'rxjs';

/** A deadline of a `DeadlineList`; `cancel()` it once it no longer matters. */
export interface Deadline {
  cancel(): void;
}

interface Entry extends Deadline {
  readonly at: number;
  readonly fire: () => void;
  done: boolean;
}

/**
 * Many deadlines on one scheduled action: adding or cancelling one is an array push or a flag, where
 * a scheduler action each (rxjs's asyncScheduler: a setInterval and a clearInterval) costs a request
 * more than its socket write. The action runs at the earliest deadline; cancelled entries are dropped
 * then. Deadlines fire in the order they fall due, never early.
 */
export class DeadlineList {
  private entries: Entry[] = [];
  /** Entries neither fired nor cancelled: at 0 the scheduled action goes too (nothing keeps the process up). */
  private live = 0;
  private armed: { readonly at: number; readonly subscription: Subscription } | undefined;

  constructor(private readonly scheduler: SchedulerLike) {}

  /** Calls `fire` `ms` from now, unless cancelled first. */
  add(ms: number, fire: () => void): Deadline {
    const entry: Entry = {
      at: this.scheduler.now() + ms,
      fire,
      done: false,
      cancel: () => {
        if (entry.done) return;
        entry.done = true;
        if (--this.live === 0) this.clear();
      },
    };
    this.live++;
    this.entries.push(entry);
    if (this.armed === undefined || entry.at < this.armed.at) this.arm(entry.at);
    return entry;
  }

  /** Stops the scheduled action; pending deadlines never fire. */
  clear(): void {
    this.armed?.subscription.unsubscribe();
    this.armed = undefined;
    this.entries = [];
    this.live = 0;
  }

  private arm(at: number): void {
    this.armed?.subscription.unsubscribe();
    this.armed = { at, subscription: this.scheduler.schedule(() => this.check(), Math.max(0, at - this.scheduler.now())) };
  }

  private check(): void {
    this.armed = undefined;
    const now = this.scheduler.now();
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
  }
}
