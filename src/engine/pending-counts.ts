import type { Counter, LabelValues } from 'prom-client';

/**
 * Increments of a labelled prom-client counter kept as plain numbers, one per label set, and handed
 * to the counter when it is read (its `collect`): an increment on the event path is a map lookup by
 * a key the caller already has, not prom-client's label hashing and validation.
 */
export class PendingCounts<L extends string> {
  private readonly pending = new Map<string, { readonly labels: LabelValues<L>; n: number }>();

  /** Counts one under `key`; `labels` (the same for a key) is built once per key. */
  add(key: string, labels: () => LabelValues<L>): void {
    const entry = this.pending.get(key);
    if (entry === undefined) this.pending.set(key, { labels: labels(), n: 1 });
    else entry.n += 1;
  }

  /** Hands what was counted since the last read to the counter. */
  flush(counter: Counter<L>): void {
    for (const entry of this.pending.values()) {
      if (entry.n === 0) continue;
      counter.inc(entry.labels, entry.n);
      entry.n = 0;
    }
  }
}
