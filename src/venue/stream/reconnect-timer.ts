import type { SchedulerLike, Subscription } from 'rxjs';
import type { BackoffOptions } from './backoff.js';
import { Backoff } from './backoff.js';

/**
 * The reconnect of a lost socket: one pending attempt at a time, after an exponential backoff that only
 * a socket which answers resets (one that accepts and drops at once keeps backing off).
 */
export class ReconnectTimer {
  private readonly backoff: Backoff;
  private timer: Subscription | undefined;

  constructor(
    private readonly scheduler: SchedulerLike,
    private readonly onDue: () => void,
    options?: BackoffOptions,
    random?: () => number,
  ) {
    this.backoff = new Backoff(options, random);
  }

  /** Replaces any pending attempt: the next one runs after the backoff (at once when `immediate`). */
  schedule(immediate = false): void {
    this.timer?.unsubscribe();
    const delay = immediate ? 0 : this.backoff.next();
    this.timer = this.scheduler.schedule(() => {
      this.timer = undefined;
      this.onDue();
    }, delay);
  }

  cancel(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
  }

  /** The socket answered: the next backoff starts from its first delay again. */
  answered(): void {
    this.backoff.reset();
  }
}
