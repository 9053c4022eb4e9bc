import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { BacktestError } from '../../recording/error.js';
import { runBacktest } from '../../backtest/runner.js';
import type { ParsedRecording } from '../../recording/parsed-recording.js';
import type { CheckBase, LookaheadResult, StrategyLookahead } from './check-types.js';
import { cutPoints, truncatedRecording, untilEnd } from './cut-points.js';
import { firstDifference } from './first-difference.js';
import { StrategyTrace } from './trace.js';

export interface LookaheadOptions {
  readonly base: CheckBase;
  readonly recording: ParsedRecording;
  /** How many cut points, spread over the recording. */
  readonly cuts: number;
  /** Called after the full run and after each cut. */
  readonly onRun?: (done: number, total: number) => void;
}

/**
 * Lookahead analysis: the strategies run once on the whole recording, then once on the recording cut
 * at each cut point. Whatever a strategy emitted or computed before a cut can only have come from the
 * data before it, so it must be the same in both runs; any difference is a value that saw the future.
 */
export async function checkLookahead(options: LookaheadOptions): Promise<Result<LookaheadResult, BacktestError>> {
  const { base, recording } = options;
  const first = recording.parts().events[0]?.ts;
  const last = recording.lastTime;
  const cuts = first === undefined || last === undefined ? [] : cutPoints(first, last, options.cuts);
  const full = new StrategyTrace();
  const reference = await runBacktest({ ...base, recordings: [], recording, ...untilEnd(recording), strategyRecorder: full });
  if (!reference.ok) return err(reference.error);
  options.onRun?.(1, cuts.length + 1);
  const findings = new Map<string, Array<StrategyLookahead['findings'][number]>>(base.strategies.map((s) => [s.id, []]));
  for (const [i, cut] of cuts.entries()) {
    const trace = new StrategyTrace();
    const run = await runBacktest({ ...base, recordings: [], recording: truncatedRecording(recording, cut), to: cut, strategyRecorder: trace });
    if (!run.ok) return err(run.error);
    for (const strategy of base.strategies) {
      const difference = firstDifference(full.get(strategy.id), trace.get(strategy.id), cut);
      if (difference !== undefined) findings.get(strategy.id)!.push({ cut, difference });
    }
    options.onRun?.(i + 2, cuts.length + 1);
  }
  const strategies = base.strategies
    .map((s) => s.id)
    .sort()
    .map((id): StrategyLookahead => {
      const traced = full.get(id);
      const indicators = [...traced.indicators.keys()].sort();
      const indicatorValues = indicators.reduce((n, name) => n + (traced.indicators.get(name)?.length ?? 0), 0);
      return { strategy: id, intents: traced.intents.length, indicatorValues, indicators, findings: findings.get(id) ?? [] };
    });
  return ok({ cuts, strategies, found: strategies.some((s) => s.findings.length > 0) });
}
