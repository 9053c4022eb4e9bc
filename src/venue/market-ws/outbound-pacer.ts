import type { Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import { SlidingWindow } from '../../protocol/sliding-window.js';

/**
 * Keeps a socket's outbound messages under the exchange's inbound limit (API-NOTES §7: 5 a second,
 * pings included, excess disconnects): at most `perSecond` within any second, the rest queued in order
 * and sent as the window frees up, on the injected scheduler.
 */
export class OutboundPacer {
  private readonly window = new SlidingWindow(1000);
  private readonly queue: string[] = [];
  private timer: Subscription | undefined;

  constructor(
    private readonly time: TimeSource,
    private readonly perSecond: number,
    private readonly write: (text: string) => void,
  ) {}

  send(text: string): void {
    this.queue.push(text);
    this.flush();
  }

  get queued(): number {
    return this.queue.length;
  }

  /** The socket went away: nothing queued for it is sent. */
  clear(): void {
    this.queue.length = 0;
    this.timer?.unsubscribe();
    this.timer = undefined;
  }

  private flush(): void {
    if (this.timer !== undefined) return;
    const now = this.time.clock.now();
    while (this.queue.length > 0 && this.window.used(now) < this.perSecond) {
      const text = this.queue.shift();
      if (text === undefined) break;
      this.window.add(now, 1);
      this.write(text);
    }
    if (this.queue.length === 0) return;
    const wait = Math.max(1, this.window.timeWhenAtMost(now, this.perSecond - 1) - now);
    this.timer = this.time.scheduler.schedule(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }
}
