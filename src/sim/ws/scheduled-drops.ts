import type { SchedulerLike, Subscription } from 'rxjs';
import type { FaultSettings } from '../config/fault-settings.js';

/** A socket the periodic drop fault can cut. */
export interface DroppableSocket {
  terminate(reason: 'fault_drop'): void;
}

/** The drop fault's draws of a socket kind (its own seeded lifetimes, its own fault counter). */
export interface SocketLifetimeFaults {
  /** How long a socket opened now lives, or undefined when the periodic drop fault is off. */
  socketLifetimeMs(): number | undefined;
  countScheduledDrop(): void;
}

/**
 * The periodic drop fault `wsDropEveryMs` over one server's sockets: each socket is cut after a drawn
 * lifetime; turned off at run time, open sockets live on; turned on, open sockets without a lifetime get one.
 */
export class ScheduledDrops<C extends DroppableSocket> {
  /** The fault's timer of each socket, cancelled when the socket closes first. */
  private readonly lifetimes = new Map<C, Subscription>();

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly faults: SocketLifetimeFaults,
  ) {}

  arm(connection: C): void {
    const lifetimeMs = this.faults.socketLifetimeMs();
    if (lifetimeMs === undefined) return;
    const cut = this.scheduler.schedule(() => {
      this.lifetimes.delete(connection);
      this.faults.countScheduledDrop();
      connection.terminate('fault_drop');
    }, lifetimeMs);
    this.lifetimes.set(connection, cut);
  }

  /** After a run-time fault change: disarms every socket, or arms the open ones without a lifetime. */
  rearm(faults: FaultSettings, open: Iterable<C>): void {
    if (faults.wsDropEveryMs === null) {
      this.clear();
      return;
    }
    for (const connection of open) if (!this.lifetimes.has(connection)) this.arm(connection);
  }

  /** The socket closed: its lifetime timer goes. */
  forget(connection: C): void {
    this.lifetimes.get(connection)?.unsubscribe();
    this.lifetimes.delete(connection);
  }

  clear(): void {
    for (const cut of this.lifetimes.values()) cut.unsubscribe();
    this.lifetimes.clear();
  }
}
