/** Amounts spent inside a rolling window; each entry expires on its own time. */
export class SlidingWindow {
  private readonly expiries: number[] = [];
  private readonly amounts: number[] = [];
  private head = 0;
  private total = 0;

  constructor(readonly windowMs: number) {}

  add(now: number, amount: number, expiresAt = now + this.windowMs): void {
    if (amount <= 0) return;
    // Entries are kept sorted by expiry so pruning stays O(1) amortised.
    let i = this.expiries.length;
    while (i > this.head && (this.expiries[i - 1] ?? 0) > expiresAt) i--;
    this.expiries.splice(i, 0, expiresAt);
    this.amounts.splice(i, 0, amount);
    this.total += amount;
  }

  used(now: number): number {
    this.prune(now);
    return this.total;
  }

  /** Earliest time at which `used` will be at most `target` (now if already so). */
  timeWhenAtMost(now: number, target: number): number {
    this.prune(now);
    let remaining = this.total;
    for (let i = this.head; i < this.expiries.length; i++) {
      if (remaining <= target) return i === this.head ? now : (this.expiries[i - 1] ?? now);
      remaining -= this.amounts[i] ?? 0;
    }
    return remaining <= target ? (this.expiries[this.expiries.length - 1] ?? now) : Infinity;
  }

  private prune(now: number): void {
    while (this.head < this.expiries.length && (this.expiries[this.head] ?? 0) <= now) {
      this.total -= this.amounts[this.head] ?? 0;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.expiries.length) {
      this.expiries.splice(0, this.head);
      this.amounts.splice(0, this.head);
      this.head = 0;
    }
  }
}
