/**
 * Average of integer samples over a trailing time window (the index `edp`: the last 10 minutes).
 * Samples arrive in time order; old ones leave from the front. The sum is exact while the window holds
 * fewer than 2^53 / (largest sample) ticks, far above any realistic sample rate.
 */
export class RollingAverage {
  private times: number[] = [];
  private values: number[] = [];
  private head = 0;
  private sum = 0;

  constructor(readonly windowMs: number) {}

  add(ts: number, value: number): void {
    this.times.push(ts);
    this.values.push(value);
    this.sum += value;
    this.evictBefore(ts - this.windowMs);
  }

  /** Sum and count of samples with `ts > now − window`; count 0 when none. */
  window(now: number): { readonly sum: number; readonly count: number } {
    const cutoff = now - this.windowMs;
    let sum = this.sum;
    let count = this.times.length - this.head;
    for (let i = this.head; i < this.times.length && (this.times[i] ?? Infinity) <= cutoff; i++) {
      sum -= this.values[i] ?? 0;
      count--;
    }
    return { sum, count };
  }

  private evictBefore(cutoff: number): void {
    while (this.head < this.times.length && (this.times[this.head] ?? Infinity) <= cutoff) {
      this.sum -= this.values[this.head] ?? 0;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.values = this.values.slice(this.head);
      this.head = 0;
    }
  }
}
