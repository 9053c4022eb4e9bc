import { emptyDoubleArray } from '../../core/empty-arrays.js';

/** Times of approved placing/modifying commands in a sliding window (oldest first). */
export class OrderRateWindow {
  private readonly times: number[] = emptyDoubleArray();

  constructor(private readonly windowMs = 60_000) {}

  /** Commands approved in the window that ends at `now`. */
  count(now: number): number {
    this.prune(now);
    return this.times.length;
  }

  /** An independent window holding the same times (a dry run records into it). */
  copy(): OrderRateWindow {
    const copy = new OrderRateWindow(this.windowMs);
    copy.times.push(...this.times);
    return copy;
  }

  record(now: number): void {
    this.prune(now);
    this.times.push(now);
  }

  private prune(now: number): void {
    const horizon = now - this.windowMs;
    let drop = 0;
    while (drop < this.times.length && (this.times[drop] ?? Infinity) <= horizon) drop++;
    if (drop > 0) this.times.splice(0, drop);
  }
}
