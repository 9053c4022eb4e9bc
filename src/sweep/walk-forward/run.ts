import { InvariantError } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { DEFAULT_EQUITY_INTERVAL_MS } from '../../backtest/run.js';
import type { RankMetric } from '../output.js';
import { metricScore, rankRows } from '../output.js';
import type { SweepRunOptions } from '../runner.js';
import { runSweep } from '../runner.js';
import type { SweepCombination, SweepJob, SweepMetrics, SweepProgress, SweepRow } from '../types.js';
import { efficiency, overallEfficiency, rateOf } from './efficiency.js';
import type { StitchedCurve } from './stitch.js';
import { stitchCurves } from './stitch.js';
import type { WalkForwardWindow } from './windows.js';
import { spanDays } from './windows.js';
import { inSampleItemOf, inSampleItems, outOfSampleItems } from './work-items.js';

/** One window's outcome: the combination its in-sample part chose and how it did on both parts. */
export interface WindowOutcome {
  readonly window: WalkForwardWindow;
  /** The grid combination chosen (its `index` is the grid row, 0-based). */
  readonly chosen: SweepCombination;
  /** Per axis, the value chosen. */
  readonly values: readonly unknown[];
  readonly inSample: SweepMetrics;
  readonly outOfSample: SweepMetrics;
  /** The ranked metric per day (netPnl, return, fills, fees) or as it is (ratios); undefined when the run left it undefined. */
  readonly inSampleRate: number | undefined;
  readonly outOfSampleRate: number | undefined;
  readonly efficiency: number | undefined;
}

export interface WalkForwardResult {
  readonly metric: RankMetric;
  readonly windows: readonly WindowOutcome[];
  /** Every in-sample row, window by window (row `index`: the in-sample item, see work-items.ts). */
  readonly inSampleRows: readonly SweepRow[];
  /** Over all windows, days-weighted (efficiency.ts). */
  readonly efficiency: number | undefined;
  readonly stitched: StitchedCurve;
}

export interface WalkForwardRunOptions extends Omit<SweepRunOptions, 'onProgress'> {
  readonly onProgress?: (phase: 'in-sample' | 'out-of-sample', progress: SweepProgress) => void;
}

/**
 * A walk-forward: every grid combination backtested on every window's in-sample part (the sweep's
 * runner and workers), the best by `metric` chosen per window (ties: the earlier grid row), and each
 * choice backtested on its window's out-of-sample part; then per window and overall efficiency and the
 * stitched out-of-sample equity curve. The first failed backtest is the error.
 */
export async function runWalkForward(
  job: SweepJob,
  combinations: readonly SweepCombination[],
  windows: readonly WalkForwardWindow[],
  metric: RankMetric,
  options: WalkForwardRunOptions,
): Promise<Result<WalkForwardResult, string>> {
  const inSample = await runInSample(job, inSampleItems(windows, combinations), options);
  if (!inSample.ok) return inSample;
  return completeWalkForward(job, combinations, windows, metric, inSample.value, options);
}

/**
 * The in-sample backtests of `items` (all of `inSampleItems`, or a shard's slice of them), rows in item
 * order. They depend on nothing else: any subset may run anywhere.
 */
export async function runInSample(job: SweepJob, items: readonly SweepCombination[], options: WalkForwardRunOptions): Promise<Result<SweepRow[], string>> {
  const { onProgress, ...rest } = options;
  const inSample = await runSweep(job, items, {
    ...rest,
    ...(onProgress === undefined ? {} : { onProgress: (p: SweepProgress) => onProgress('in-sample', p) }),
  });
  return inSample.ok ? inSample : err(`in-sample: ${inSample.error}`);
}

/**
 * The rest of a walk-forward from every in-sample row (one run's, or the merged rows of its shards):
 * the best per window, its out-of-sample backtest, the efficiencies and the stitched curve.
 */
export async function completeWalkForward(
  job: SweepJob,
  combinations: readonly SweepCombination[],
  windows: readonly WalkForwardWindow[],
  metric: RankMetric,
  inSampleRows: readonly SweepRow[],
  options: WalkForwardRunOptions,
): Promise<Result<WalkForwardResult, string>> {
  const { onProgress, before: _before, ...again } = options;
  const best = chooseBest(inSampleRows, combinations, windows.length, metric);
  const outOfSample = await runSweep(job, outOfSampleItems(windows, best.map((row) => combinations[inSampleItemOf(row.index, combinations.length).combination]!)), {
    ...again,
    ...(onProgress === undefined ? {} : { onProgress: (p: SweepProgress) => onProgress('out-of-sample', p) }),
  });
  if (!outOfSample.ok) return err(`out-of-sample: ${outOfSample.error}`);
  const outcomes = windows.map((window, w): WindowOutcome => {
    const chosenRow = best[w]!;
    const oos = outOfSample.value[w]!;
    const inSampleRate = rateOf(metric, metricScore(chosenRow, metric), spanDays(window.inSample));
    const outOfSampleRate = rateOf(metric, metricScore(oos, metric), spanDays(window.outOfSample));
    return {
      window,
      chosen: combinations[inSampleItemOf(chosenRow.index, combinations.length).combination]!,
      values: chosenRow.values,
      inSample: chosenRow.metrics,
      outOfSample: oos.metrics,
      inSampleRate,
      outOfSampleRate,
      efficiency: efficiency(outOfSampleRate, inSampleRate),
    };
  });
  const overall = overallEfficiency(
    outcomes.map((o) => ({ inSample: { rate: o.inSampleRate, days: spanDays(o.window.inSample) }, outOfSample: { rate: o.outOfSampleRate, days: spanDays(o.window.outOfSample) } })),
  );
  const stitched = stitchCurves(outOfSample.value.map((row) => row.equity ?? []), DEFAULT_EQUITY_INTERVAL_MS);
  return ok({ metric, windows: outcomes, inSampleRows, efficiency: overall, stitched });
}

/** Per window, its best in-sample row by `metric` (rankRows: ties and undefined ratios go to the earlier grid row). */
function chooseBest(rows: readonly SweepRow[], combinations: readonly SweepCombination[], windows: number, metric: RankMetric): SweepRow[] {
  const perWindow: SweepRow[][] = Array.from({ length: windows }, () => []);
  for (const row of rows) perWindow[inSampleItemOf(row.index, combinations.length).window]!.push(row);
  return perWindow.map((list, w) => {
    const top = rankRows(list, metric)[0];
    if (top === undefined) throw new InvariantError('WALK_FORWARD_ROWS', `walk-forward window ${w + 1} has no in-sample row`);
    return top;
  });
}
