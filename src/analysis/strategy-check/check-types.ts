import type { BacktestOptions } from '../../backtest/types.js';
import type { Difference } from './first-difference.js';

/** The backtest every run of a check is made of: all but the recording, its range and the recorder. */
export type CheckBase = Omit<BacktestOptions, 'recordings' | 'recording' | 'prepared' | 'from' | 'to' | 'strategyRecorder' | 'onProgress'>;

/** One strategy's lookahead verdict. */
export interface StrategyLookahead {
  readonly strategy: string;
  /** What the full run recorded of it: intents, and indicator values over all its indicators. */
  readonly intents: number;
  readonly indicatorValues: number;
  readonly indicators: readonly string[];
  /** Cuts at which a run on the truncated recording disagreed with the full run before the cut. */
  readonly findings: ReadonlyArray<{ readonly cut: number; readonly difference: Difference }>;
}

export interface LookaheadResult {
  readonly cuts: readonly number[];
  readonly strategies: readonly StrategyLookahead[];
  readonly found: boolean;
}

/** One indicator value: whose, which, on which kline (open time). */
export interface ValueAt {
  readonly strategy: string;
  readonly indicator: string;
  readonly openTime: number;
}

/** How far one warm-up length's indicator values drift from those of the longest one. */
export interface WarmupRow {
  readonly warmupMs: number;
  /** Largest relative difference |v − ref| / |ref| over the evaluated values both runs have; 0 for the reference. */
  readonly maxDrift: number;
  /** Values the reference has and this run did not (its indicators were not ready yet). */
  readonly missing: number;
  /** Where the largest drift was. */
  readonly worst?: ValueAt;
  /** The earliest kline of a missing value. */
  readonly firstMissing?: ValueAt;
  readonly withinTolerance: boolean;
}

export interface WarmupResult {
  /** Evaluation starts here: each run was given `warmupMs` of history before it. */
  readonly evaluationStart: number;
  readonly tolerance: number;
  /** Values compared per run (those of the reference run from the evaluation start). */
  readonly compared: number;
  /** Shortest first; the last (longest) is the reference. */
  readonly rows: readonly WarmupRow[];
  /** The first warm-up length within tolerance, shorter than the reference; undefined: none was. */
  readonly recommendedMs: number | undefined;
}
