import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import type { SweepJob } from '../../../src/sweep/types.js';
import { sweepConfigHash, sweepContextJson, sweepOfMerged } from '../../../src/sweep/shard/index.js';
import type { MergedShards } from '../../../src/sweep/shard/index.js';
import { tempDir } from '../backtest-support.js';
import { quoterJob, SOURCE_QUOTER } from '../sweep-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

const AXES: SweepJob['axes'] = [{ strategy: 'quoter-btc', section: 'params', key: 'halfSpreadBps', values: [1, 4] }];

describe("a sweep's configuration hash", () => {
  const moduleA = tmp.path('a.ts');
  const moduleB = tmp.path('b.ts');
  copyFileSync(SOURCE_QUOTER, moduleA);
  copyFileSync(SOURCE_QUOTER, moduleB);
  const base = sweepConfigHash(quoterJob('/data/one.jsonl', moduleA, AXES));

  it('is the same for the same work from other paths, with or without the prepared cache', () => {
    expect(sweepConfigHash({ ...quoterJob('/mnt/other/one.jsonl', moduleB, AXES), prepared: {} })).toBe(base);
  });

  it('changes with a grid value, a param, a risk limit, the latency or the strategy code', () => {
    const job = quoterJob('/data/one.jsonl', moduleA, AXES);
    const changed: SweepJob[] = [
      { ...job, axes: [{ ...AXES[0]!, values: [1, 5] }] },
      { ...job, strategies: job.strategies.map((s) => ({ ...s, params: { ...s.params, quantity: 2 } })) },
      { ...job, risk: { ...job.risk, maxOpenOrders: 41 } },
      { ...job, latency: { orderLatencyMs: 10, ackLatencyMs: 10 } },
    ];
    for (const other of changed) expect(sweepConfigHash(other)).not.toBe(base);
    writeFileSync(moduleB, `${readFileSync(SOURCE_QUOTER, 'utf8')}\n// changed\n`);
    expect(sweepConfigHash(quoterJob('/data/one.jsonl', moduleB, AXES))).not.toBe(base);
  });
});

describe('the merged sweep', () => {
  const context = { axes: AXES, rank: 'netPnl' as const, heatmap: null, recordings: ['one.jsonl'] };
  const metrics = { netPnl: '1.5', return: 0.1, maxDrawdown: 0.02, sharpe: null, sortino: 1.2, orders: 4, fills: 2, fees: '0.1', fillsSha256: 'f'.repeat(64) };
  const merged = (results: MergedShards['results']): MergedShards => ({ kind: 'sweep', stratdVersion: '0', recordingHash: 'a'.repeat(64), configHash: 'b'.repeat(64), context: sweepContextJson(context), results });

  it('gives the rows in grid order', () => {
    const rows = [0, 1].map((index) => ({ index, values: [AXES[0]!.values[index]], metrics }));
    expect(sweepOfMerged(merged(rows.map((row, i) => ({ id: `combination-${i + 1}`, value: row }))))).toEqual({ ok: true, value: { context, rows } });
  });

  it('refuses an item file that is not its combination’s row', () => {
    const wrong = merged([{ id: 'combination-1', value: { index: 1, values: [4], metrics } }]);
    expect(sweepOfMerged(wrong)).toEqual({ ok: false, error: 'combination-1: the row of combination 2 with 1 values, not combination 1 of 1 axes' });
    const broken = merged([{ id: 'combination-1', value: { index: 0, values: [1], metrics: { ...metrics, fills: 'two' } } }]);
    expect(sweepOfMerged(broken)).toMatchObject({ ok: false, error: expect.stringContaining('combination-1: not a sweep row (metrics.fills') as unknown });
  });
});
