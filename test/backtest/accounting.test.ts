import { dec } from '../../src/core/decimal.js';
import { runBacktest } from '../../src/backtest/runner.js';
import { equityCsv } from '../../src/report/csv.js';
import type { Intent } from '../../src/model/intents.js';
import type { MarketEvent } from '../../src/sim/market-stream/events.js';
import { ACCOUNT, BTC, depth, mark, marketBuy, once, scripted, standardMarket, T0, tempDir, writeRecording } from './backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

const marketSell = (quantity: string): Intent => ({ type: 'place', symbol: BTC, side: 'SELL', orderType: 'MARKET', quantity: dec(quantity) });
const funding = (ts: number, rate: string, next: number): MarketEvent => ({ type: 'funding', ts, symbol: BTC, rate, nextFundingTime: next, period: '8H' });

test('funding is charged on the account and split between strategies by their net contracts', async () => {
  const events: MarketEvent[] = [
    ...standardMarket(),
    depth(
      T0 + 1000,
      [
        ['99999.9', '5'],
        ['99999.8', '10'],
      ],
      [
        ['100000', '20'],
        ['100000.1', '3'],
      ],
    ),
    funding(T0 + 2000, '0.0001', T0 + 3000),
    mark(T0 + 2500, '100000'),
    // The interval ending at T0+3000 settles at 0.0001 on the mark: longs pay.
    funding(T0 + 3000, '0.0002', T0 + 3000 + 8 * 3_600_000),
    mark(T0 + 4000, '100000'),
  ];
  const file = await writeRecording(tmp.path('funding.jsonl'), events);
  const long = scripted('long', once(T0 + 1000, marketBuy('10')));
  const short = scripted('short', once(T0 + 1000, marketSell('4')));
  const result = await runBacktest({ strategies: [long.instance, short.instance], risk: {}, recordings: [file], account: ACCOUNT, tickMs: 0, equityIntervalMs: 1000 });
  if (!result.ok) throw result.error;
  const { summary } = result.value;

  expect(result.value.fills.map((f) => [f.strategy, f.side, f.qty.toFixed()])).toEqual([
    ['long', 'BUY', '10'],
    ['short', 'SELL', '4'],
  ]);
  // Net 6 long contracts of 0.001 BTC at 100000 × 0.0001 = 0.06 paid.
  expect(summary.total.funding).toBe('-0.06');
  expect(summary.strategies['long']?.funding).toBe('-0.1');
  expect(summary.strategies['short']?.funding).toBe('0.04');
  // Fees: 10 × 0.001 × 100000 × 0.0006 and 4 × 0.001 × 99999.9 × 0.0006.
  expect(summary.strategies['long']?.fees).toBe('0.6');
  expect(summary.strategies['short']?.fees).toBe('0.23999976');
  expect(summary.total.fees).toBe('0.83999976');
  expect(summary.total.netPnl).toBe(dec(summary.total.finalEquity).sub(100000).toFixed());
  expect(summary.total.exposure).toBeGreaterThan(0.5);

  const csv = equityCsv(result.value.equity, result.value.strategyIds).trimEnd().split('\n');
  expect(csv[0]).toBe('time,isoTime,equity,drawdown,pnl:long,pnl:short');
  expect(csv[1]).toBe(`${T0},2026-01-01T00:00:00.000Z,100000,0,0,0`);
  expect(result.value.equity.map((r) => r.time)).toEqual([T0, T0 + 1000, T0 + 2000, T0 + 3000, T0 + 4000]);
});
