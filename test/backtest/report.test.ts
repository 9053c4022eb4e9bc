import { dec } from '../../src/core/decimal.js';
import type { BacktestResult } from '../../src/backtest/runner.js';
import { parseRecordings, runBacktest } from '../../src/backtest/runner.js';
import { fillsCsv } from '../../src/report/csv.js';
import type { PriceSeries } from '../../src/report/data.js';
import type { AlgoRow } from '../../src/backtest/types.js';
import { fillOwner, MAX_CANDLES, reportPageData, thin } from '../../src/report/data.js';
import { escapeHtml, MAX_TABLE_ROWS, reportHtml, scriptJson } from '../../src/report/html.js';
import { tableOf } from '../../src/report/page.js';
import { coarsened, PriceSeriesCollector, priceSeriesOf, priceSeriesOfReplay } from '../../src/report/prices.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import breakout from '../../strategies/breakout/index.js';
import quoter from '../../strategies/spread-quoter/index.js';
import { ACCOUNT, T0, tempDir, writeGenerated } from './backtest-support.js';

/** report.html: deterministic, escaped, bounded; report-browser.test.ts draws it in a real headless Chromium. */

const tmp = tempDir();
afterAll(() => tmp.remove());

function examples(): StrategyInstance[] {
  return [
    { id: 'quoter-btc', symbols: ['BTC-SWAP-USDT'], definition: quoter, params: quoter.params.parse({ quantity: 1, halfSpreadBps: 2, requoteBps: 2, maxPosition: 5 }), limits: { maxPosition: dec(10), maxOpenOrders: 4 } },
    { id: 'breakout-eth', symbols: ['ETH-SWAP-USDT'], definition: breakout, params: breakout.params.parse({ quantity: 10, windowMs: 20_000 }), limits: { maxPosition: dec(50) } },
  ];
}

let result: BacktestResult;
let prices: PriceSeries[];
beforeAll(async () => {
  const recording = await writeGenerated(tmp.path('market.jsonl'), 7, 8);
  const run = await runBacktest({ strategies: examples(), risk: { maxOrdersPerMinute: 120 }, recordings: [recording], account: ACCOUNT });
  if (!run.ok) throw run.error;
  result = run.value;
  prices = await priceSeriesOf([recording]);
});

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

test('the same result gives the same bytes', () => {
  expect(reportHtml(result, prices)).toBe(reportHtml(result, prices));
});

test('text is escaped: nothing from a result can open markup or close the data script', () => {
  const hostile = '</script><img src=x onerror="alert(1)">&';
  const tampered: BacktestResult = { ...result, summary: { ...result.summary, warnings: [hostile], recordings: [{ path: hostile, events: 1 }] } };
  const html = reportHtml(tampered, [{ symbol: hostile, source: hostile, intervalMs: 60_000, candles: [[60_000, 1, 2, 0.5, 1.5]] }]);
  expect(html).not.toContain('<img');
  expect(html).toContain(escapeHtml(hostile));
  // The data, the chart library and the page's script: nothing else ends a script element.
  expect(count(html, /<\/script>/g)).toBe(3);
  expect(escapeHtml(`<a href='x'>&"`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&quot;');
  expect(scriptJson({ s: '</script>\u2028' })).toBe('{"s":"\\u003c/script\\u003e\\u2028"}');
});

test('long tables are cut with a note naming the CSV that holds them all; long series are thinned but keep their last point', () => {
  const many = Array.from({ length: 600 }, () => result.fills[0]!);
  const html = reportHtml({ ...result, fills: many }, prices);
  expect(html).toContain(`Showing the first ${MAX_TABLE_ROWS} of 600 fills; <a href="fills.csv">fills.csv</a>`);
  expect(fillsCsv(many).trimEnd().split('\n')).toHaveLength(601);
  const series = Array.from({ length: 4999 }, (_, i) => i);
  const thinned = thin(series, 1000);
  expect(thinned.length).toBeLessThanOrEqual(1001);
  expect(thinned[0]).toBe(0);
  expect(thinned[thinned.length - 1]).toBe(4998);
});

test('price series: 1-minute candles per symbol built from the recorded trades, sorted, on the interval grid, OHLC consistent', () => {
  expect(prices.map((p) => p.symbol)).toEqual(['BTC-SWAP-USDT', 'ETH-SWAP-USDT']);
  for (const p of prices) {
    expect(p.source).toBe('1m candles from the trades');
    expect(p.intervalMs).toBe(60_000);
    // 8 generated minutes: a candle for each minute traded.
    expect(p.candles.length).toBeGreaterThanOrEqual(7);
    expect(p.candles.length).toBeLessThanOrEqual(9);
    const times = p.candles.map(([t]) => t);
    expect(new Set(times).size).toBe(times.length);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    for (const [t, open, high, low, close] of p.candles) {
      expect(t % 60_000).toBe(0);
      expect(high).toBeGreaterThanOrEqual(Math.max(open, close, low));
      expect(low).toBeLessThanOrEqual(Math.min(open, close));
    }
  }
});

test("the candles gathered from a replay's own events as it runs are those of a second pass over the recordings", async () => {
  // Two recordings merged in time, cut at both ends: warm-up events before `from` and events after `to`.
  const second = await writeGenerated(tmp.path('second.jsonl'), 9, 6);
  const range = { from: T0 + 90_000, to: T0 + 5 * 60_000 + 30_000 };
  const parsed = await parseRecordings([tmp.path('market.jsonl'), second], range.to);
  if (!parsed.ok) throw parsed.error;
  const during = new PriceSeriesCollector(range);
  let handed = 0;
  const run = await runBacktest({
    strategies: examples(),
    risk: { maxOrdersPerMinute: 120 },
    recordings: [],
    recording: parsed.value,
    account: ACCOUNT,
    ...range,
    onRecordedEvent: (event) => {
      handed++;
      during.add(event);
    },
  });
  if (!run.ok) throw run.error;
  expect(handed).toBe(parsed.value.size);
  const afterwards = priceSeriesOfReplay(parsed.value, range);
  expect(afterwards.map((p) => p.candles.length)).toEqual([5, 5]);
  expect(during.series()).toEqual(afterwards);

  // One JSONL recording read as the replay runs (`--no-cache`): the candles of reading the file again.
  const fromFile = new PriceSeriesCollector(range);
  const jsonl = await runBacktest({ strategies: examples(), risk: { maxOrdersPerMinute: 120 }, recordings: [second], account: ACCOUNT, ...range, onRecordedEvent: (event) => void fromFile.add(event) });
  if (!jsonl.ok) throw jsonl.error;
  const reread = await priceSeriesOf([second], range);
  expect(reread.map((p) => p.candles.length)).toEqual([5, 5]);
  expect(fromFile.series()).toEqual(reread);
});

test('a long run is drawn in a longer interval: candles merge into the shortest interval that gives at most the maximum', () => {
  const minutes = Array.from({ length: 3 * MAX_CANDLES }, (_, i): readonly [number, number, number, number, number] => [i * 60_000, i, i + 2, i - 2, i + 1]);
  const merged = coarsened(minutes, '1m', 60_000, MAX_CANDLES);
  expect(merged.interval).toBe('3m');
  expect(merged.candles).toHaveLength(MAX_CANDLES);
  expect(merged.candles[1]).toEqual([180_000, 3, 7, 1, 6]);
  expect(coarsened(minutes.slice(0, 10), '1m', 60_000, MAX_CANDLES).candles).toHaveLength(10);
});

test("a fill of the order a TP/SL made when it fired belongs, on the report's tabs, to the TP/SL's owner", () => {
  const fill = { ...result.fills[0]!, strategy: '', orderId: '9001' };
  const other = { ...result.fills[0]!, strategy: '', orderId: '9002' };
  const stop: AlgoRow = {
    createTime: fill.time - 1000,
    strategy: 'breakout-eth',
    order: { symbol: fill.symbol, orderId: '77', clientOrderId: 'x', kind: 'STOP_LOSS', side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', triggerPrice: dec(1), triggerBy: 'MARK_PRICE', price: dec(0), quantity: dec(0), status: 'ORDER_FILLED', executedOrderId: '9001', updateTime: fill.time },
  };
  const owner = fillOwner([stop]);
  expect(owner(fill)).toBe('breakout-eth');
  expect(owner(other)).toBe('');
  expect(owner(result.fills[0]!)).toBe(result.fills[0]!.strategy);
  const data = reportPageData({ ...result, fills: [fill, other], algoOrders: [stop] }, prices);
  const tab = data.tabs.find((t) => t.id === 'breakout-eth')!;
  const pane = tab.symbols.find((s) => s.symbol === fill.symbol)!;
  expect([pane.fills.length, pane.stops]).toEqual([1, [[stop.createTime, 1, 'SL', fill.time]]]);
  expect(data.tabs.find((t) => t.id === 'all')!.symbols.find((s) => s.symbol === fill.symbol)!.fills).toHaveLength(2);
});

describe('report tables', () => {
  it("make the cells of the rows shown only, and name the CSV that holds the rest", () => {
    const items = Array.from({ length: MAX_TABLE_ROWS + 150 }, (_, i) => i);
    const made: number[] = [];
    const html = tableOf(['n'], items, (i) => (made.push(i), [i]), 1, 'rows', 'rows.csv');
    expect(made).toEqual(items.slice(0, MAX_TABLE_ROWS));
    expect(html).toContain(`Showing the first ${MAX_TABLE_ROWS} of ${items.length} rows`);
    expect(html).toContain(`<td class="l">${MAX_TABLE_ROWS - 1}</td>`);
    expect(html).not.toContain(`<td class="l">${MAX_TABLE_ROWS}</td>`);
  });
});
