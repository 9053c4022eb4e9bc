import { emptyDoubleArray } from '../../core/empty-arrays.js';

/**
 * Times of approved placing/modifying commands in a sliding window (oldest first). The window's
 * oldest is at `head`: times leave by moving it (a `splice` per approval made an array of what it
 * removed and shifted the rest), and the gone slots are dropped once they are half of the array.
 */
export class OrderRateWindow {
  private times: number[] = emptyDoubleArray();
  private head = 0;

  constructor(private readonly windowMs = 60_000) {}

  /** Commands approved in the window that ends at `now`. */
  count(now: number): number {
    this.prune(now);
    return this.times.length - this.head;
  }

  /** An independent window holding the same times (a dry run records into it). */
  copy(): OrderRateWindow {
    const copy = new OrderRateWindow(this.windowMs);
    for (let i = this.head; i < this.times.length; i++) copy.times.push(this.times[i]!);
    return copy;
  }

  record(now: number): void {
    this.prune(now);
    this.times.push(now);
  }

  private prune(now: number): void {
    const horizon = now - this.windowMs;
    const times = this.times;
    let head = this.head;
    while (head < times.length && times[head]! <= horizon) head++;
    if (head === times.length) {
      // Empty: start over in place (no array made).
      times.length = 0;
      head = 0;
    } else if (head >= 64 && head * 2 >= times.length) {
      const kept = emptyDoubleArray();
      for (let i = head; i < times.length; i++) kept.push(times[i]!);
      this.times = kept;
      head = 0;
    }
    this.head = head;
  }
}
