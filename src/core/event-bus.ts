import { Observable } from 'rxjs';
import type { Subscriber } from 'rxjs';

/** A subscriber of the observable, or a plain listener (`listen`). */
type Receiver<T> = Subscriber<T> | ((value: T) => void);

/**
 * An rxjs Subject's multicast without its cost (the kernel's bus, the REST transport's reports): every
 * event to the current subscribers, in the order they subscribed, without a Subject's closure and
 * error-context wrapper per event (every market event of a replay passes here). A subscriber added or removed while an event is being delivered takes
 * effect from the next event (the list is replaced, never changed in place, as a Subject's snapshot).
 * After `complete()` new subscribers are completed at once and `next` reaches nobody.
 * `listen` takes a plain function in the same order, called directly (no rxjs Subscriber and its
 * error reporting around each call: what it throws reaches the caller of `next`).
 */
export class EventBus<T> {
  private receivers: ReadonlyArray<Receiver<T>> = [];
  private completed = false;
  readonly observable: Observable<T> = new Observable<T>((subscriber) => {
    if (this.completed) {
      subscriber.complete();
      return undefined;
    }
    return this.add(subscriber);
  });

  /** Calls `listener` with every event from now on (none after `complete()`); the answer removes it. */
  listen(listener: (value: T) => void): () => void {
    if (this.completed) return () => undefined;
    return this.add(listener);
  }

  private add(receiver: Receiver<T>): () => void {
    this.receivers = [...this.receivers, receiver];
    return () => {
      this.receivers = this.receivers.filter((r) => r !== receiver);
    };
  }

  next(value: T): void {
    const list = this.receivers;
    for (let i = 0; i < list.length; i++) {
      const receiver = list[i]!;
      if (typeof receiver === 'function') receiver(value);
      else receiver.next(value);
    }
  }

  complete(): void {
    if (this.completed) return;
    this.completed = true;
    const list = this.receivers;
    this.receivers = [];
    for (const receiver of list) if (typeof receiver !== 'function') receiver.complete();
  }
}
