import { dec } from '../../../src/core/decimal.js';
import { runBacktest } from '../../../src/backtest/runner.js';
import { reportHtml } from '../../../src/report/html.js';
import type { MarketEvent } from '../../../src/sim/market-stream/events.js';
import { ACCOUNT, BTC, depth, header, mark, marketBuy, once, scripted, T0, tempDir, writeRecording } from '../backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

const HOUR = 3_600_000;
/** The funding series: the rate announced for each hourly settlement, and the mark price at it. */
const SERIES = [
  { settle: T0 + HOUR, rate: '0.0001', mark: '100000' },
  { settle: T0 + 2 * HOUR, rate: '-0.0002', mark: '101000' },
  { settle: T0 + 3 * HOUR, rate: '0.0003', mark: '99000' },
];
const LONG = '10';
/** BTC-SWAP-USDT contracts are 0.001 BTC. */
const MULTIPLIER = '0.001';

/**
 * 3 h 20 min of BTC market (book and mark every 10 s) with an hourly funding series: each funding event
 * announces the rate for the next settlement; at each settlement the interval ending then is charged at
 * its announced rate on the mark price of that moment. A strategy buys 10 contracts at the start and holds.
 */
function market(withFunding: boolean): MarketEvent[] {
  const events: MarketEvent[] = [];
  const markAt = (ts: number): string => {
    const exact = SERIES.find((s) => s.settle === ts);
    return exact?.mark ?? '100000';
  };
  for (let ts = T0; ts <= T0 + 3 * HOUR + 20 * 60_000; ts += 10_000) {
    events.push(depth(ts, [['99999.9', '50']], [['100000', '50']]));
    events.push(mark(ts, markAt(ts)));
    if (!withFunding) continue;
    const index = SERIES.findIndex((s) => s.settle === ts);
    if (ts === T0) events.push({ type: 'funding', ts, symbol: BTC, rate: SERIES[0]!.rate, nextFundingTime: SERIES[0]!.settle, period: '1H' });
    else if (index >= 0) {
      const next = SERIES[index + 1];
      events.push({ type: 'funding', ts, symbol: BTC, rate: next?.rate ?? '0.0001', nextFundingTime: ts + HOUR, period: '1H' });
    }
  }
  return events;
}

test('funding PnL from a recorded series equals the hand-computed sum over its settlements, and the PnL splits into trading, fees and funding', async () => {
  const file = await writeRecording(tmp.path('funding.jsonl'), market(true), { ...header(), channels: ['depth', 'mark', 'funding'] });
  const holder = scripted('holder', once(T0, marketBuy(LONG)));
  const result = await runBacktest({ strategies: [holder.instance], risk: {}, recordings: [file], account: ACCOUNT, tickMs: 0, equityIntervalMs: 60_000 });
  if (!result.ok) throw result.error;
  const { summary } = result.value;
  expect(result.value.fills.map((f) => [f.side, f.qty.toFixed()])).toEqual([['BUY', LONG]]);

  // A long pays mark × coins × rate at each settlement (receives when the rate is negative).
  const coins = dec(LONG).mul(MULTIPLIER);
  const expected = SERIES.reduce((sum, s) => sum.sub(dec(s.mark).mul(coins).mul(s.rate)), dec(0));
  expect(expected.toFixed()).toBe('-0.195');
  expect(summary.total.funding).toBe(expected.toFixed());
  expect(summary.strategies['holder']?.funding).toBe(expected.toFixed());
  expect(summary.fundingSeries[BTC]).toEqual({ events: 4, settlements: 3, status: 'recorded' });

  // net = trading − fees + funding, to the cent of the account's equity.
  const t = summary.total;
  expect(dec(t.tradingPnl).toFixed()).toBe(dec(t.realizedPnl).add(t.unrealizedPnl).toFixed());
  expect(dec(t.netPnl).toFixed()).toBe(dec(t.tradingPnl).sub(t.fees).add(t.funding).toFixed());
  expect(dec(t.finalEquity).sub(100000).toFixed()).toBe(dec(t.netPnl).toFixed());
  expect(summary.warnings).toEqual([]);

  const html = reportHtml(result.value);
  expect(html).toContain('<h2>PnL split</h2>');
  expect(html).toContain('data-table="funding-series"');
}, 120_000);

test('a held symbol without a funding series is a warning in the summary, not a silent zero', async () => {
  const file = await writeRecording(tmp.path('no-funding.jsonl'), market(false), { ...header(), channels: ['depth', 'mark'] });
  const holder = scripted('holder', once(T0, marketBuy(LONG)));
  const result = await runBacktest({ strategies: [holder.instance], risk: {}, recordings: [file], account: ACCOUNT, tickMs: 0, equityIntervalMs: 60_000 });
  if (!result.ok) throw result.error;
  const { summary } = result.value;
  expect(summary.fundingSeries[BTC]).toMatchObject({ events: 0, settlements: 0, status: 'missing' });
  expect(summary.fundingSeries[BTC]?.warning).toMatch(/no funding for BTC-SWAP-USDT.*unknown, not zero/);
  expect(summary.warnings).toContainEqual(expect.stringMatching(/^funding: the recordings hold no funding for BTC-SWAP-USDT/));
  expect(reportHtml(result.value)).toContain('unknown, not zero');
}, 120_000);

test('a funding series that stops before a settlement inside the run is incomplete', async () => {
  const cut = market(true).filter((e) => !(e.type === 'funding' && e.ts >= T0 + 2 * HOUR));
  const file = await writeRecording(tmp.path('cut-funding.jsonl'), cut, { ...header(), channels: ['depth', 'mark', 'funding'] });
  const holder = scripted('holder', once(T0, marketBuy(LONG)));
  const result = await runBacktest({ strategies: [holder.instance], risk: {}, recordings: [file], account: ACCOUNT, tickMs: 0, equityIntervalMs: 60_000 });
  if (!result.ok) throw result.error;
  const series = result.value.summary.fundingSeries[BTC];
  expect(series).toMatchObject({ events: 2, settlements: 1, status: 'incomplete' });
  expect(series?.warning).toContain('2026-01-01T02:00:00.000Z');
}, 120_000);
