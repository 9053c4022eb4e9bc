import type { Subscription } from 'rxjs';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import type { BusEvent } from '../../../src/model/bus-events.js';

/** Every event on the daemon's bus from now on (after the cache applied it). */
export class BusRecorder {
  readonly events: BusEvent[] = [];
  private readonly subscription: Subscription;

  constructor(daemon: Daemon) {
    this.subscription = daemon.kernel.events$.subscribe((event) => this.events.push(event));
  }

  of<T extends BusEvent['type']>(type: T): Array<Extract<BusEvent, { type: T }>> {
    return this.events.filter((e): e is Extract<BusEvent, { type: T }> => e.type === type);
  }

  stop(): void {
    this.subscription.unsubscribe();
  }
}
