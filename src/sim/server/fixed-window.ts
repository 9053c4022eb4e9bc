/**
 * Usage per identity in fixed windows aligned to the epoch (a 1-minute window starts on a whole
 * minute), so every identity's window resets at the same instant. Old windows are dropped whole.
 */
export class FixedWindowCounter {
  private windowStart = Number.NEGATIVE_INFINITY;
  private readonly usage = new Map<string, number>();

  constructor(readonly windowMs: number) {
    if (!(Number.isInteger(windowMs) && windowMs > 0)) throw new RangeError(`window must be a positive integer of ms, got ${windowMs}`);
  }

  used(id: string, now: number): number {
    this.roll(now);
    return this.usage.get(id) ?? 0;
  }

  add(id: string, amount: number, now: number): number {
    this.roll(now);
    const total = (this.usage.get(id) ?? 0) + amount;
    this.usage.set(id, total);
    return total;
  }

  /** Start of the next window after `now`. */
  resetAt(now: number): number {
    return startOf(now, this.windowMs) + this.windowMs;
  }

  private roll(now: number): void {
    const start = startOf(now, this.windowMs);
    if (start === this.windowStart) return;
    this.windowStart = start;
    this.usage.clear();
  }
}

function startOf(now: number, windowMs: number): number {
  return now - (((now % windowMs) + windowMs) % windowMs);
}
