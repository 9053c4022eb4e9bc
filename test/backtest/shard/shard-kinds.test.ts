import { scenarioItems } from '../../../src/analysis/monte-carlo/scenario-items.js';
import { outcomesOfMerged, scenarioWork, shardSelect } from '../../../src/analysis/monte-carlo/shard.js';
import type { MergedShards } from '../../../src/sweep/shard/index.js';
import type { SweepCombination } from '../../../src/sweep/types.js';
import { inSampleRowsOfMerged, walkForwardWork } from '../../../src/sweep/walk-forward/shard.js';
import type { WalkForwardWindow } from '../../../src/sweep/walk-forward/windows.js';

const windows: WalkForwardWindow[] = [0, 1].map((index) => ({ index, inSample: { from: index * 10, to: index * 10 + 7 }, outOfSample: { from: index * 10 + 8, to: index * 10 + 9 } }));
const combinations: SweepCombination[] = [0, 1, 2].map((index) => ({ index, choice: [index] }));

function merged(results: MergedShards['results']): MergedShards {
  return { kind: 'k', stratdVersion: '0', recordingHash: '0'.repeat(64), configHash: '0'.repeat(64), context: null, results };
}

const METRICS = { netPnl: '0', return: 0, maxDrawdown: 0, sharpe: null, sortino: null, orders: 0, fills: 0, fees: '0', fillsSha256: 'x' };

test('walk-forward work: window × combination in window order, each on its window’s in-sample part', () => {
  const work = walkForwardWork(windows, combinations);
  expect(work.map((w) => w.id)).toEqual(['window-1-combination-1', 'window-1-combination-2', 'window-1-combination-3', 'window-2-combination-1', 'window-2-combination-2', 'window-2-combination-3']);
  expect(work[4]?.combination).toEqual({ index: 4, choice: [1], span: windows[1]!.inSample });
});

test('merged in-sample rows are checked against their items', () => {
  const work = walkForwardWork(windows, combinations);
  const rows = work.map((w) => ({ id: w.id, value: { index: w.combination.index, values: [w.combination.index % 3], metrics: METRICS } }));
  expect(inSampleRowsOfMerged(merged(rows), work, 1)).toMatchObject({ ok: true });
  const swapped = [rows[1]!, rows[0]!, ...rows.slice(2)];
  expect(inSampleRowsOfMerged(merged(swapped), work, 1)).toEqual({ ok: false, error: 'window-1-combination-2: the row of in-sample item 2 with 1 values, not window-1-combination-1 of 1 axes' });
});

test('Monte Carlo shards: every scenario in exactly one of them, and outcomes checked against their scenarios', () => {
  const items = scenarioItems(['shuffle', 'bootstrap'], 4);
  const slices = [0, 1, 2].map((index) => shardSelect({ index, count: 3, mode: 'contiguous' })(items));
  expect(slices.flat()).toEqual(items);
  const work = scenarioWork(items);
  const outcome = (item: number): unknown => ({ ...items[item], finalEquity: '100', maxDrawdown: 0.1, sharpe: null, trades: 3 });
  expect(outcomesOfMerged(merged(work.map((w, k) => ({ id: w.id, value: outcome(k) }))), work)).toMatchObject({ ok: true });
  const wrong = work.map((w, k) => ({ id: w.id, value: outcome(k === 5 ? 6 : k) }));
  expect(outcomesOfMerged(merged(wrong), work)).toEqual({ ok: false, error: 'bootstrap-2: the outcome of bootstrap scenario 3, not of bootstrap-2' });
});
