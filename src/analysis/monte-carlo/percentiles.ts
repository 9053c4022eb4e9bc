/** The percentiles every Monte Carlo distribution reports. */
export const PERCENTILES = [5, 25, 50, 75, 95] as const;

export type Percentile = (typeof PERCENTILES)[number];

/** A distribution's summary: how many values, their mean and the percentiles (null: no values). */
export interface Distribution {
  readonly count: number;
  readonly mean: number | null;
  readonly min: number | null;
  readonly max: number | null;
  readonly percentiles: Readonly<Record<`p${Percentile}`, number | null>>;
}

/**
 * The q-th percentile (0…100) of sorted values by linear interpolation between closest ranks
 * (Hyndman & Fan type 7, the default of numpy and R); undefined for no values.
 */
export function percentileOf(sorted: readonly number[], q: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = (q / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const a = sorted[low]!;
  const b = sorted[high]!;
  return a + (b - a) * (rank - low);
}

/** Rounded to 6 significant decimals so equal runs print equal bytes whatever the summation order. */
function round6(value: number): number {
  return Number(value.toFixed(6));
}

export function distributionOf(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number | null => {
    const value = percentileOf(sorted, q);
    return value === undefined ? null : round6(value);
  };
  const mean = sorted.length === 0 ? null : round6(sorted.reduce((s, v) => s + v, 0) / sorted.length);
  return {
    count: sorted.length,
    mean,
    min: sorted.length === 0 ? null : sorted[0]!,
    max: sorted.length === 0 ? null : sorted.at(-1)!,
    percentiles: { p5: at(5), p25: at(25), p50: at(50), p75: at(75), p95: at(95) },
  };
}
