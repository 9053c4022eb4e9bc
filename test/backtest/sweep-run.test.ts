import { runBacktest } from '../../src/backtest/runner.js';
import { parseSweepGrid } from '../../src/sweep/grid.js';
import type { SweepPlan } from '../../src/sweep/grid.js';
import { rankedTable, rankRows, sweepCsv } from '../../src/sweep/output.js';
import { runSweep } from '../../src/sweep/runner.js';
import type { SweepProgress } from '../../src/sweep/types.js';
import { dec } from '../../src/core/decimal.js';
import { parseYamlText } from '../../src/settings/yaml-source.js';
import quoter from '../../strategies/spread-quoter/index.js';
import { ACCOUNT, BTC, tempDir, writeGenerated } from './backtest-support.js';
import { BASE_PARAMS, GRID, quoterJob, SOURCE_QUOTER } from './sweep-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());
let recording: string;
let plan: SweepPlan;
beforeAll(async () => {
  recording = await writeGenerated(tmp.path('market.jsonl'), 7, 3);
  const source = parseYamlText(GRID, 'grid.yml');
  if (!source.ok) throw source.error;
  const parsed = parseSweepGrid(source.value, [{ id: 'quoter-btc', definition: quoter, params: BASE_PARAMS }]);
  if (!parsed.ok) throw parsed.error;
  plan = parsed.value;
});

describe('sweep in process', () => {
  it('gives each combination the metrics of its own backtest, in combination order', async () => {
    const progress: SweepProgress[] = [];
    const rows = await runSweep(quoterJob(recording, SOURCE_QUOTER, plan.axes), plan.combinations, { workers: 0, onProgress: (p) => progress.push(p) });
    if (!rows.ok) throw new Error(rows.error);
    expect(rows.value.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(progress.at(-1)).toEqual({ done: 8, total: 8 });
    for (const row of rows.value) {
      const [halfSpreadBps, requoteBps, maxPosition] = row.values as [number, number, number];
      const single = await runBacktest({
        strategies: [
          {
            id: 'quoter-btc',
            symbols: [BTC],
            definition: quoter,
            params: quoter.params.parse({ ...BASE_PARAMS, halfSpreadBps, requoteBps }),
            limits: { maxPosition: dec(maxPosition), maxOpenOrders: 4 },
          },
        ],
        risk: { maxOpenOrders: 40, priceBandPct: dec(5) },
        recordings: [recording],
        account: ACCOUNT,
      });
      if (!single.ok) throw single.error;
      const t = single.value.summary.total;
      expect(row.metrics).toEqual({
        netPnl: t.netPnl,
        return: t.return,
        maxDrawdown: t.maxDrawdown,
        sharpe: t.sharpe,
        sortino: t.sortino,
        orders: t.orders,
        fills: t.fills,
        fees: t.fees,
        fillsSha256: single.value.summary.fillsSha256,
      });
    }
    // The grid changes the outcome, so the comparison above is not vacuous.
    expect(new Set(rows.value.map((r) => r.metrics.fillsSha256)).size).toBeGreaterThan(1);

    const csv = sweepCsv(plan.axes, rows.value).split('\n');
    expect(csv[0]).toBe('combination,quoter-btc.params.halfSpreadBps,quoter-btc.params.requoteBps,quoter-btc.risk.maxPosition,netPnl,return,maxDrawdown,sharpe,sortino,orders,fills,fees,fillsSha256');
    expect(csv[1]).toMatch(/^1,1,1,2,/);
    expect(csv).toHaveLength(10);
    const ranked = rankRows(rows.value, 'netPnl');
    const pnl = ranked.map((r) => Number(r.metrics.netPnl));
    expect(pnl).toEqual([...pnl].sort((a, b) => b - a));
    expect(rankedTable(plan.axes, ranked, 'netPnl').split('\n')[1]).toMatch(/^rank\s+#\s+quoter-btc\.params\.halfSpreadBps/);
  }, 120_000);

  it('reports a recording it cannot replay as the failed combination', async () => {
    const rows = await runSweep(quoterJob(tmp.path('missing.jsonl'), SOURCE_QUOTER, plan.axes), plan.combinations, { workers: 0 });
    expect(rows).toMatchObject({ ok: false });
    if (!rows.ok) expect(rows.error).toMatch(/^combination 1: /);
  });
});
