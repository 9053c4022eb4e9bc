/**
 * The intervals between one stream's events, counted by exact length (whole ms), for its median: a
 * stream's normal cadence. Regular streams (depth, mark, index) have few distinct intervals, so the
 * table stays small.
 */
export class Cadence {
  private readonly counts = new Map<number, number>();
  private total = 0;

  get samples(): number {
    return this.total;
  }

  add(intervalMs: number): void {
    this.counts.set(intervalMs, (this.counts.get(intervalMs) ?? 0) + 1);
    this.total++;
  }

  /** The median interval (the lower middle of an even count); undefined before any interval. */
  median(): number | undefined {
    if (this.total === 0) return undefined;
    const keys = [...this.counts.keys()].sort((a, b) => a - b);
    const middle = Math.floor((this.total - 1) / 2);
    let seen = 0;
    for (const key of keys) {
      seen += this.counts.get(key) ?? 0;
      if (seen > middle) return key;
    }
    return keys[keys.length - 1];
  }
}
