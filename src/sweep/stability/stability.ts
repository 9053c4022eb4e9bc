import type { RankMetric } from '../output.js';
import { lowerIsBetter, metricScore, rankRows } from '../output.js';
import type { SweepAxis, SweepRow } from '../types.js';
import { axisName } from '../types.js';

/** A neighbour of the best combination: one parameter one step away in the grid, the rest equal. */
export interface Neighbour {
  /** -1 (the previous value in the grid) or +1 (the next). */
  readonly step: -1 | 1;
  readonly value: unknown;
  /** Its combination (1-based, as in sweep.csv). */
  readonly combination: number;
  /** Its ranked metric (undefined: a ratio the run left undefined). */
  readonly score: number | undefined;
  /** How much worse than the best it is (≥ 0 unless the best's ratio is undefined; undefined with an undefined score). */
  readonly loss: number | undefined;
}

export interface ParameterStability {
  /** strategy.section.key */
  readonly parameter: string;
  readonly bestValue: unknown;
  readonly neighbours: readonly Neighbour[];
  /** The larger loss of the two neighbours, in the metric's units; undefined when no neighbour has a score. */
  readonly maxLoss: number | undefined;
  /** maxLoss over |best score|: 0 on a plateau, 1 when a step loses all of it; undefined when the best scores 0 or undefined. */
  readonly relativeLoss: number | undefined;
}

export interface SweepStability {
  readonly metric: RankMetric;
  /** The best combination by the metric (1-based) and its score. */
  readonly best: number;
  readonly bestScore: number | undefined;
  readonly parameters: readonly ParameterStability[];
}

/**
 * Parameter stability around the best combination by `metric`: for each swept parameter, the
 * combinations one grid step below and above (every other parameter as in the best), and how much the
 * metric worsens there. A best result on a lone peak (large loss one step away) is likely overfit; one on
 * a plateau (small loss) is robust. Undefined for a sweep without rows. `rows` must hold the full grid
 * (their `values` give each one's place).
 */
export function sweepStability(axes: readonly SweepAxis[], rows: readonly SweepRow[], metric: RankMetric): SweepStability | undefined {
  const best = rankRows(rows, metric)[0];
  if (best === undefined) return undefined;
  const key = (values: readonly unknown[]): string => JSON.stringify(values);
  const byValues = new Map(rows.map((row) => [key(row.values), row]));
  const bestScore = metricScore(best, metric);
  const sign = lowerIsBetter(metric) ? -1 : 1;
  const parameters = axes.map((axis, a): ParameterStability => {
    const at = axis.values.findIndex((v) => JSON.stringify(v) === JSON.stringify(best.values[a]));
    const neighbours: Neighbour[] = [];
    for (const step of [-1, 1] as const) {
      const value = axis.values[at + step];
      if (at + step < 0 || at + step >= axis.values.length) continue;
      const row = byValues.get(key(best.values.map((v, k) => (k === a ? value : v))));
      if (row === undefined) continue;
      const score = metricScore(row, metric);
      const loss = score === undefined || bestScore === undefined ? undefined : sign * (bestScore - score);
      neighbours.push({ step, value, combination: row.index + 1, score, loss });
    }
    const losses = neighbours.flatMap((n) => (n.loss === undefined ? [] : [n.loss]));
    const maxLoss = losses.length === 0 ? undefined : Math.max(...losses);
    const relativeLoss = maxLoss === undefined || bestScore === undefined || bestScore === 0 ? undefined : maxLoss / Math.abs(bestScore);
    return { parameter: axisName(axis), bestValue: best.values[a], neighbours, maxLoss, relativeLoss };
  });
  return { metric, best: best.index + 1, bestScore, parameters };
}
