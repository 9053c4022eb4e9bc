import { join } from 'node:path';
import { runBacktest } from '../../../src/backtest/runner.js';
import { rankRows } from '../../../src/sweep/output.js';
import { expand } from '../../../src/sweep/grid.js';
import type { SweepAxis } from '../../../src/sweep/types.js';
import { runWalkForward } from '../../../src/sweep/walk-forward/run.js';
import { walkForwardWindows } from '../../../src/sweep/walk-forward/windows.js';
import { inSampleItemOf } from '../../../src/sweep/walk-forward/work-items.js';
import { dec } from '../../../src/core/decimal.js';
import quoter from '../../../strategies/spread-quoter/index.js';
import { ACCOUNT, BTC, T0 } from '../backtest-support.js';
import { BASE_PARAMS, quoterJob, SOURCE_QUOTER } from '../sweep-support.js';

/** A walk-forward of the spread quoter over the shipped sample's first 12 minutes: 2 windows × 2 combinations, in process. */
const SAMPLE = join(process.cwd(), 'data', 'sample-market.jsonl.gz');
const MIN = 60_000;
const END = T0 + 12 * MIN;
const axes: SweepAxis[] = [{ strategy: 'quoter-btc', section: 'params', key: 'halfSpreadBps', values: [1, 6] }];

test('chooses each window’s best in-sample combination, backtests it out of sample and stitches the curves', async () => {
  const windows = walkForwardWindows({ from: T0, to: END }, { kind: 'count', windows: 2, inSampleRatio: 2, anchored: false });
  if (!windows.ok) throw new Error(windows.error);
  const combinations = expand(axes);
  const job = { ...quoterJob(SAMPLE, SOURCE_QUOTER, axes), to: END };
  const phases: string[] = [];
  const result = await runWalkForward(job, combinations, windows.value, 'netPnl', { workers: 0, onProgress: (phase, p) => phases.push(`${phase} ${p.done}/${p.total}`) });
  if (!result.ok) throw new Error(result.error);
  const wf = result.value;
  expect(phases).toEqual(['in-sample 1/4', 'in-sample 2/4', 'in-sample 3/4', 'in-sample 4/4', 'out-of-sample 1/2', 'out-of-sample 2/2']);
  expect(wf.inSampleRows).toHaveLength(4);
  // The combinations differ in sample, so the choice is not vacuous.
  expect(new Set(wf.inSampleRows.map((r) => r.metrics.fillsSha256)).size).toBe(4);

  for (const [w, outcome] of wf.windows.entries()) {
    const own = wf.inSampleRows.filter((r) => inSampleItemOf(r.index, 2).window === w);
    const best = rankRows(own, 'netPnl')[0]!;
    expect(outcome.chosen.index).toBe(inSampleItemOf(best.index, 2).combination);
    expect(outcome.inSample).toEqual(best.metrics);
    // Out of sample: exactly a plain backtest of the chosen params over that part.
    const single = await runBacktest({
      strategies: [{ id: 'quoter-btc', symbols: [BTC], definition: quoter, params: quoter.params.parse({ ...BASE_PARAMS, halfSpreadBps: outcome.values[0] }), limits: { maxPosition: dec(10), maxOpenOrders: 4 } }],
      risk: { maxOpenOrders: 40, priceBandPct: dec(5) },
      recordings: [SAMPLE],
      account: ACCOUNT,
      from: outcome.window.outOfSample.from,
      to: outcome.window.outOfSample.to,
    });
    if (!single.ok) throw single.error;
    expect(outcome.outOfSample.fillsSha256).toBe(single.value.summary.fillsSha256);
    expect(outcome.outOfSample.netPnl).toBe(single.value.summary.total.netPnl);
    expect(single.value.summary.total.fills).toBeGreaterThan(0);
    // Efficiency: net PnL per day out of sample over in sample.
    const days = (s: { from: number; to: number }): number => (s.to - s.from + 1) / 86_400_000;
    expect(outcome.inSampleRate).toBeCloseTo(Number(best.metrics.netPnl) / days(outcome.window.inSample), 6);
    expect(outcome.outOfSampleRate).toBeCloseTo(Number(outcome.outOfSample.netPnl) / days(outcome.window.outOfSample), 6);
    expect(outcome.efficiency).toBeCloseTo(outcome.outOfSampleRate! / outcome.inSampleRate!, 9);
  }

  // Stitched: starts at the opening equity, each part continues where the previous ended, ends at the sum of the parts' PnL.
  const points = wf.stitched.points;
  expect(points[0]!.equity.toFixed()).toBe('100000');
  expect(points[0]!.time).toBe(wf.windows[0]!.window.outOfSample.from);
  const firstOfSecond = points.findIndex((p) => p.window === 1);
  expect(firstOfSecond).toBeGreaterThan(1);
  expect(points[firstOfSecond]!.equity.eq(points[firstOfSecond - 1]!.equity)).toBe(true);
  const sum = wf.windows.reduce((s, w) => s.add(dec(w.outOfSample.netPnl)), dec(0));
  expect(wf.stitched.netPnl.sub(sum).abs().lte('0.00000002')).toBe(true);
  expect(points.map((p) => p.time)).toEqual([...points.map((p) => p.time)].sort((a, b) => a - b));
}, 180_000);
