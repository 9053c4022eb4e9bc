import { Observable } from 'rxjs';
import type { Subscriber } from 'rxjs';

/**
 * The kernel's bus: every event to the current subscribers, in the order they subscribed, as an rxjs
 * Subject multicasts, without a Subject's closure and error-context wrapper per event (every market
 * event of a replay passes here). A subscriber added or removed while an event is being delivered takes
 * effect from the next event (the list is replaced, never changed in place, as a Subject's snapshot).
 * After `complete()` new subscribers are completed at once and `next` reaches nobody.
 */
export class EventBus<T> {
  private subscribers: ReadonlyArray<Subscriber<T>> = [];
  private completed = false;
  readonly observable: Observable<T> = new Observable<T>((subscriber) => {
    if (this.completed) {
      subscriber.complete();
      return undefined;
    }
    this.subscribers = [...this.subscribers, subscriber];
    return () => {
      this.subscribers = this.subscribers.filter((s) => s !== subscriber);
    };
  });

  next(value: T): void {
    const list = this.subscribers;
    for (let i = 0; i < list.length; i++) list[i]!.next(value);
  }

  complete(): void {
    if (this.completed) return;
    this.completed = true;
    const list = this.subscribers;
    this.subscribers = [];
    for (const subscriber of list) subscriber.complete();
  }
}
