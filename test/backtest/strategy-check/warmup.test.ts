import { parseJsonlRecordings } from '../../../src/backtest/runner.js';
import { checkReport, checkReportText, checkWarmup } from '../../../src/analysis/strategy-check/index.js';
import { klineSeriesOf } from '../../../src/app/commands/backtest-flags.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import { ACCOUNT, T0, tempDir } from '../backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

const MIN = 60_000;

test('on the shipped sample, trend\'s EMA(9)/EMA(21)/ATR(14) need a warm-up: none leaves values missing, the recommendation is the first length within 2 %', async () => {
  const prepared = await prepareRun({ config: 'config/strategies/trend.yml' }, { HOME: tmp.dir });
  if (!prepared.ok) throw prepared.error;
  // The sample (from 2026-01-01T00:00Z): its first 80 minutes, 45 of warm-up at most, 35 evaluated.
  const parsed = await parseJsonlRecordings(['data/sample-market.jsonl.gz'], T0 + 80 * MIN);
  if (!parsed.ok) throw parsed.error;
  const start = parsed.value.parts().events[0]!.ts;
  expect(start - T0).toBeLessThan(MIN);
  const base = { strategies: prepared.value.strategies, risk: {}, account: ACCOUNT, klines: klineSeriesOf(prepared.value.config) };
  const result = await checkWarmup({ base, recording: parsed.value, warmupsMs: [0, 10 * MIN, 30 * MIN, 45 * MIN], tolerance: 0.02 });
  if (!result.ok) throw result.error;
  const { rows, recommendedMs, evaluationStart, compared } = result.value;
  expect(evaluationStart).toBe(start + 45 * MIN);
  // 35 closed klines evaluated, three indicators.
  expect(compared).toBeGreaterThan(90);
  expect(rows.map((r) => r.warmupMs)).toEqual([0, 10 * MIN, 30 * MIN, 45 * MIN]);
  // Without history, EMA(21) is not ready for the evaluation's first 20 klines; 10 minutes are not enough either.
  expect(rows[0]).toMatchObject({ withinTolerance: false });
  expect(rows[0]!.missing).toBeGreaterThan(20);
  expect(rows[1]).toMatchObject({ withinTolerance: false });
  expect(rows[1]!.missing).toBeGreaterThan(0);
  expect(rows[3]).toMatchObject({ maxDrift: 0, missing: 0, withinTolerance: true });
  expect(rows[2]).toMatchObject({ missing: 0, withinTolerance: true });
  expect(rows[2]!.maxDrift).toBeGreaterThan(0);
  // ATR's Wilder smoothing remembers longest: it drifts most; nothing is missing any more.
  expect(rows[2]!.worst?.indicator).toBe('atr(14)@BTC-SWAP-USDT/1m');
  expect(rows[2]!.firstMissing).toBeUndefined();
  expect(rows[0]!.firstMissing?.strategy).toBe('trend-btc');
  expect(recommendedMs).toBe(30 * MIN);
  expect(checkReportText(checkReport(undefined, result.value))).toContain('recommended minimum warm-up: 30m');
}, 120_000);
