import type { Histogram, LabelValues } from 'prom-client';

/** Observations held at most before they go to the histogram anyway (between scrapes). */
const HELD_MAX = 1024;

/**
 * Histogram observations held until the histogram is read (its `collect`), as PendingCounts holds
 * counts: prom-client validates and hashes the labels of every `observe` (a label child does the same),
 * work that does not belong on the path from market data to an order. The scrape sees every value.
 */
export class PendingObservations<L extends string> {
  private readonly pending = new Map<string, { readonly labels: LabelValues<L>; values: number[] }>();
  private held = 0;

  constructor(private readonly histogram: Histogram<L>) {}

  /** Observes `value` under `key`; `labels` (the same for a key) is built once per key. */
  add(key: string, labels: () => LabelValues<L>, value: number): void {
    const entry = this.pending.get(key);
    if (entry === undefined) this.pending.set(key, { labels: labels(), values: [value] });
    else entry.values.push(value);
    if (++this.held >= HELD_MAX) this.flush();
  }

  /** Hands what was observed since the last read to the histogram. */
  flush(): void {
    if (this.held === 0) return;
    this.held = 0;
    for (const entry of this.pending.values()) {
      if (entry.values.length === 0) continue;
      const values = entry.values;
      entry.values = [];
      for (const value of values) this.histogram.observe(entry.labels, value);
    }
  }
}
