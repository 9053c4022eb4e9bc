import type { RankMetric } from '../output.js';

/** Metrics that grow with the length of the run (money, return, counts): compared per day. The rest (Sharpe, Sortino, drawdown) are compared as they are. */
const PER_DAY: ReadonlySet<RankMetric> = new Set<RankMetric>(['netPnl', 'return', 'fills', 'fees']);

export function comparedPerDay(metric: RankMetric): boolean {
  return PER_DAY.has(metric);
}

/**
 * A part's `metric` in a form parts of different lengths compare: per day for netPnl, return, fills and
 * fees; Sharpe and Sortino are annualised already and drawdown is a fraction, so they stay as they are.
 */
export function rateOf(metric: RankMetric, value: number | undefined, days: number): number | undefined {
  if (value === undefined) return undefined;
  return comparedPerDay(metric) ? value / days : value;
}

/** Out-of-sample rate over in-sample rate; undefined when either is unknown or the in-sample one is 0. */
export function efficiency(outOfSample: number | undefined, inSample: number | undefined): number | undefined {
  if (outOfSample === undefined || inSample === undefined || inSample === 0) return undefined;
  return outOfSample / inSample;
}

/**
 * Walk-forward efficiency of the whole run: the out-of-sample rates' mean over the in-sample rates'
 * mean, each weighted by its part's days (for a per-day metric: total out-of-sample metric per
 * out-of-sample day over total in-sample metric per in-sample day). Parts with an unknown rate are left out.
 */
export function overallEfficiency(parts: ReadonlyArray<{ readonly inSample: { readonly rate: number | undefined; readonly days: number }; readonly outOfSample: { readonly rate: number | undefined; readonly days: number } }>): number | undefined {
  const mean = (side: 'inSample' | 'outOfSample'): number | undefined => {
    let sum = 0;
    let days = 0;
    for (const part of parts) {
      const { rate, days: d } = part[side];
      if (rate === undefined) continue;
      sum += rate * d;
      days += d;
    }
    return days === 0 ? undefined : sum / days;
  };
  return efficiency(mean('outOfSample'), mean('inSample'));
}
