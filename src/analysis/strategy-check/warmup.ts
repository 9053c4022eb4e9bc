import type { Decimal } from '../../core/decimal.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { BacktestError } from '../../recording/error.js';
import { runBacktest } from '../../backtest/runner.js';
import type { ParsedRecording } from '../../recording/parsed-recording.js';
import type { CheckBase, WarmupResult, WarmupRow } from './check-types.js';
import type { TracedValue } from './trace.js';
import { StrategyTrace } from './trace.js';
import { untilEnd } from './cut-points.js';

export interface WarmupOptions {
  readonly base: CheckBase;
  readonly recording: ParsedRecording;
  /** Warm-up lengths to try, ms; the longest is the reference. */
  readonly warmupsMs: readonly number[];
  /** Relative drift accepted (0.001: 0.1 %). */
  readonly tolerance: number;
  /** Evaluation start; default the recording's first event + the longest warm-up. */
  readonly evaluationStart?: number;
  readonly onRun?: (done: number, total: number) => void;
}

/** Indicator values of a run from the evaluation start, by strategy, indicator and kline open time. */
type Values = Map<string, Map<number, TracedValue>>;

/**
 * Warm-up (recursive) analysis: the strategies run from the same evaluation start, each time given a
 * different length of history before it (the backtest starts that much earlier). Recursive indicators
 * (EMA, RSI, ATR) remember their whole past, so their values after the start depend on how much came
 * before; compared with the longest warm-up, the drift of each shorter one tells how much history the
 * strategy needs. The recommendation is the first length whose drift is within the tolerance and whose
 * indicators are all ready where the reference's are.
 */
export async function checkWarmup(options: WarmupOptions): Promise<Result<WarmupResult, BacktestError>> {
  const { base, recording, tolerance } = options;
  const warmups = [...new Set(options.warmupsMs)].sort((a, b) => a - b);
  const longest = warmups[warmups.length - 1];
  const first = recording.parts().events[0]?.ts;
  const last = recording.lastTime;
  if (longest === undefined || first === undefined || last === undefined) return err(new BacktestError('BAD_RANGE', 'the warm-up check needs a recording with events and at least one warm-up length'));
  const evaluationStart = options.evaluationStart ?? first + longest;
  if (evaluationStart - longest < first) return err(new BacktestError('BAD_RANGE', `a warm-up of ${longest} ms before the evaluation start ${new Date(evaluationStart).toISOString()} begins before the recording (${new Date(first).toISOString()})`));
  if (evaluationStart >= last) return err(new BacktestError('BAD_RANGE', `the evaluation start ${new Date(evaluationStart).toISOString()} leaves nothing of the recording to evaluate (it ends ${new Date(last).toISOString()}); try shorter warm-ups`));
  const runs: Values[] = [];
  for (const [i, warmup] of warmups.entries()) {
    const trace = new StrategyTrace();
    const run = await runBacktest({ ...base, recordings: [], recording, ...untilEnd(recording), from: evaluationStart - warmup, strategyRecorder: trace });
    if (!run.ok) return err(run.error);
    runs.push(valuesFrom(trace, base.strategies.map((s) => s.id), evaluationStart));
    options.onRun?.(i + 1, warmups.length);
  }
  const reference = runs[runs.length - 1]!;
  let compared = 0;
  for (const series of reference.values()) compared += series.size;
  const rows = warmups.map((warmupMs, i) => drift(warmupMs, runs[i]!, reference, tolerance));
  const recommended = rows.slice(0, -1).find((r) => r.withinTolerance);
  return ok({ evaluationStart, tolerance, compared, rows, recommendedMs: recommended?.warmupMs });
}

function valuesFrom(trace: StrategyTrace, strategies: readonly string[], start: number): Values {
  const values: Values = new Map();
  for (const strategy of strategies) {
    for (const [name, series] of trace.get(strategy).indicators) {
      const byOpen = new Map<number, TracedValue>();
      for (const value of series) if (value.time >= start) byOpen.set(value.openTime, value);
      values.set(`${strategy}\u0000${name}`, byOpen);
    }
  }
  return values;
}

function drift(warmupMs: number, run: Values, reference: Values, tolerance: number): WarmupRow {
  let maxDrift = 0;
  let missing = 0;
  let worst: WarmupRow['worst'];
  let worstMissing: WarmupRow['worst'];
  for (const [key, series] of reference) {
    const [strategy = '', indicator = ''] = key.split('\u0000');
    const mine = run.get(key);
    for (const [openTime, ref] of series) {
      const value = mine?.get(openTime);
      if (value === undefined) {
        missing++;
        if (worstMissing === undefined || openTime < worstMissing.openTime) worstMissing = { strategy, indicator, openTime };
        continue;
      }
      const d = relative(value.parts, ref.parts);
      if (d > maxDrift) {
        maxDrift = d;
        worst = { strategy, indicator, openTime };
      }
    }
  }
  return {
    warmupMs,
    maxDrift,
    missing,
    ...(worst === undefined ? {} : { worst }),
    ...(worstMissing === undefined ? {} : { firstMissing: worstMissing }),
    withinTolerance: missing === 0 && maxDrift <= tolerance,
  };
}

/** Largest |a − r| / |r| over the components (|a − r| where r is 0). */
function relative(a: readonly Decimal[], r: readonly Decimal[]): number {
  let max = 0;
  r.forEach((ref, i) => {
    const value = a[i];
    if (value === undefined) return;
    const diff = value.minus(ref).abs();
    const d = ref.isZero() ? diff.toNumber() : diff.div(ref.abs()).toNumber();
    if (d > max) max = d;
  });
  return max;
}
