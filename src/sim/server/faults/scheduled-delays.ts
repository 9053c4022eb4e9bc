import type { SchedulerLike, Subscription } from 'rxjs';

/** Delays on the injected scheduler (virtual in tests), all cancellable at once when the server stops. */
export class ScheduledDelays {
  private readonly pending = new Set<Subscription>();

  constructor(private readonly scheduler: SchedulerLike) {}

  /** Resolves after `ms`; at once (without scheduling) for 0. A cancelled delay never resolves. */
  wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const subscription = this.scheduler.schedule(() => {
        this.pending.delete(subscription);
        resolve();
      }, ms);
      this.pending.add(subscription);
    });
  }

  cancelAll(): void {
    for (const subscription of this.pending) subscription.unsubscribe();
    this.pending.clear();
  }

  get size(): number {
    return this.pending.size;
  }
}
