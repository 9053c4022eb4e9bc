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
    if (i === this.expiries.length) {
      // The usual case (a fixed window: later entries expire later): an append, no splice and its result array.
      this.expiries.push(expiresAt);
      this.amounts.push(amount);
    } else {
      this.expiries.splice(i, 0, expiresAt);
      this.amounts.splice(i, 0, amount);
    }
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

/**
 * Amounts counted in fixed windows aligned to the epoch — window n covers [n·windowMs, (n+1)·windowMs) —
 * the way a server with fixed windows counts them. An amount whose arrival time is only known to lie in
 * an interval is counted in every window that interval touches; what it adds to windows after the one
 * holding its likeliest time is also kept apart as that window's spill.
 */
export class EpochWindows {
  private readonly amounts = new Map<number, number>();
  private readonly spills = new Map<number, number>();
  /** No window before this one is kept: the last `add`'s first window (the server clock may step back). */
  private keptFrom = -Infinity;

  constructor(readonly windowMs: number) {
    if (!(Number.isInteger(windowMs) && windowMs > 0)) throw new RangeError(`window must be a positive integer of ms, got ${windowMs}`);
  }

  /** Index of the window holding time `t`. */
  indexOf(t: number): number {
    return Math.floor(t / this.windowMs);
  }

  /** Start of window `index`. */
  startOf(index: number): number {
    return index * this.windowMs;
  }

  /**
   * Counts `amount`, likeliest at `at`, in every window touched by [from, to] (from ≤ at ≤ to); forgets
   * windows that ended before `from`.
   */
  add(at: number, from: number, to: number, amount: number): void {
    const first = this.indexOf(from);
    if (first > this.keptFrom) {
      for (const index of this.amounts.keys()) {
        if (index >= first) continue;
        this.amounts.delete(index);
        this.spills.delete(index);
      }
    }
    this.keptFrom = first;
    if (amount <= 0) return;
    const home = this.indexOf(at);
    const end = this.indexOf(to);
    for (let i = first; i <= end; i++) {
      this.amounts.set(i, (this.amounts.get(i) ?? 0) + amount);
      if (i > home) this.spills.set(i, (this.spills.get(i) ?? 0) + amount);
    }
  }

  /** Amount counted in window `index`. */
  used(index: number): number {
    return this.amounts.get(index) ?? 0;
  }

  /** Part of `used(index)` counted there only because it might arrive late, from the window before. */
  spilled(index: number): number {
    return this.spills.get(index) ?? 0;
  }
}
