import { dec } from '../../src/core/decimal.js';
import { runBacktest } from '../../src/backtest/runner.js';
import type { BacktestResult } from '../../src/backtest/runner.js';
import type { BarEvent, MarketEvent } from '../../src/sim/market-stream/events.js';
import type { MarketStreamHeader } from '../../src/sim/market-stream/format.js';
import { barPath } from '../../src/sim/market-stream/bar-path.js';
import { StepGrid } from '../../src/sim/market-stream/ticks.js';
import type { Intent } from '../../src/model/intents.js';
import type { Scripted } from './backtest-support.js';
import { ACCOUNT, BTC, header, limitBuy, marketBuy, once, scripted, T0, tempDir, writeRecording } from './backtest-support.js';

/** The bar model (src/backtest/bar-fill-model.ts) through the kernel, the port's latency and the unchanged matching engine. */

const MINUTE = 60_000;
const tmp = tempDir();
afterAll(() => tmp.remove());

const barHeader: MarketStreamHeader = { ...header(), channels: ['bar'], source: 'download', levels: { bar: 'bar' }, barMs: MINUTE };

function bar(minute: number, open: string, high: string, low: string, close: string, source: BarEvent['source'] = 'contract'): BarEvent {
  return { type: 'bar', ts: T0 + minute * MINUTE, symbol: BTC, source, durationMs: MINUTE, open, high, low, close, volume: source === 'contract' ? '10' : '0' };
}

/** Flat bars at 100000 after the scripted ones, so the run goes on a while. */
function flat(from: number, to: number): BarEvent[] {
  const out: BarEvent[] = [];
  for (let m = from; m < to; m++) out.push(bar(m, '100000', '100000', '100000', '100000'));
  return out;
}

async function backtest(name: string, events: readonly MarketEvent[], strategy: Scripted, slippageBps?: number): Promise<BacktestResult> {
  const file = await writeRecording(tmp.path(`${name}.jsonl`), events, barHeader);
  const result = await runBacktest({
    strategies: [strategy.instance],
    risk: {},
    recordings: [file],
    account: ACCOUNT,
    tickMs: 0,
    klines: [{ symbol: BTC, interval: '1m' }],
    ...(slippageBps === undefined ? {} : { barModel: { slippageBps } }),
  });
  if (!result.ok) throw result.error;
  return result.value;
}

/** Acts on the first closed kline (bar 0, seen at its end). */
const onFirstKline = (id: string, intent: Intent): Scripted => scripted(id, once(T0, intent, 'market.kline'));

test('a resting buy fills when a bar trades through its price; a low that only touches it is no fill', async () => {
  const events = [
    bar(0, '100000', '100010', '99990', '100000'),
    bar(1, '100000', '100005', '99980', '99990'), // low = the order's price: a touch
    bar(2, '99990', '99995', '99979.9', '99985'), // through by one tick
    ...flat(3, 6),
  ];
  const buyer = onFirstKline('limit', limitBuy('99980'));
  const result = await backtest('through', events, buyer);

  expect(buyer.emitted).toHaveLength(1);
  expect(buyer.emitted[0]?.at).toBe(T0 + MINUTE);
  expect(result.fills).toHaveLength(1);
  const fill = result.fills[0]!;
  expect(fill.price.toFixed()).toBe('99980');
  expect(fill.isMaker).toBe(true);
  expect(fill.time).toBeGreaterThanOrEqual(T0 + 2 * MINUTE);
  expect(fill.time).toBeLessThan(T0 + 3 * MINUTE);
  expect(result.summary.fillModel).toMatch(/^fills are bar-modelled/);
});

test('a market order sent on a bar\'s close fills at the next bar\'s open plus the slippage, not inside the bar it saw close', async () => {
  const events = [bar(0, '100000', '100050', '99950', '100000'), bar(1, '100100', '100300', '100090', '100200'), ...flat(2, 5)];
  for (const [slippageBps, price] of [
    [2, '100120'], // 100100 × 2 bps = 20.02 → 200 ticks of 0.1
    [0, '100100.1'], // at least one tick
  ] as const) {
    const buyer = onFirstKline(`market-${slippageBps}`, marketBuy('1'));
    const result = await backtest(`market-${slippageBps}`, events, buyer, slippageBps);
    expect(result.fills).toHaveLength(1);
    const fill = result.fills[0]!;
    expect(fill.time).toBe(T0 + MINUTE + 50); // sent at bar 1's open, plus the order latency
    expect(fill.price.toFixed()).toBe(price);
    expect(fill.isMaker).toBe(false);
    expect(result.summary.fillModel).toContain(`± ${slippageBps} bps`);
  }
});

test('a stop triggers when the bar\'s high reaches it, and not while the highs stay below it', async () => {
  const stopBuy: Intent = { type: 'plan', symbol: BTC, side: 'BUY', triggerPrice: dec('100200'), triggerBy: 'CONTRACT_PRICE', orderType: 'MARKET', quantity: dec('1') };
  const events = [
    bar(0, '100000', '100050', '99950', '100000'),
    bar(1, '100000', '100199.9', '99990', '100100'), // high one tick short
    bar(2, '100100', '100400', '100050', '100300'), // rising bar: open → low → high → close
    ...flat(3, 6),
  ];
  const buyer = onFirstKline('stop', stopBuy);
  const result = await backtest('stop', events, buyer);

  expect(result.fills).toHaveLength(1);
  const fill = result.fills[0]!;
  expect(fill.time).toBeGreaterThanOrEqual(T0 + 2 * MINUTE);
  expect(fill.time).toBeLessThan(T0 + 3 * MINUTE);
  // Filled on the way up to the high, within one path step (1/8 of the leg) past the trigger, plus slippage.
  expect(fill.price.gte(dec('100200'))).toBe(true);
  expect(fill.price.lte(dec('100400').mul(1.0002))).toBe(true);
});

test('no look-ahead: klines reach strategies at the bar\'s end, and an order placed then cannot fill inside that bar', async () => {
  // Bar 0 trades far below the buy; the order is placed on its close, so only bar 1 (which never goes below 100000) counts.
  const events = [bar(0, '100000', '100010', '99000', '100000'), bar(1, '100000', '100100', '100000', '100050'), ...flat(2, 4)];
  const buyer = onFirstKline('late', limitBuy('99500'));
  const result = await backtest('lookahead', events, buyer);
  const klines = buyer.seen.filter((s) => s.event.type === 'market.kline');
  expect(klines.length).toBeGreaterThan(0);
  for (const { at, event } of klines) if (event.type === 'market.kline') expect(at).toBeGreaterThanOrEqual(event.openTime + MINUTE);
  expect(result.fills).toEqual([]);
});

test('a bar\'s path stays inside the bar: open first, low before high on a rising bar, close last, on the tick grid', () => {
  const grid = new StepGrid('0.1');
  const rising = barPath(bar(0, '100', '110', '95', '105'), grid, 4);
  expect(rising[0]).toEqual({ ts: T0, priceTicks: 1000 });
  expect(rising.at(-1)).toEqual({ ts: T0 + MINUTE - 1, priceTicks: 1050 });
  const low = rising.findIndex((p) => p.priceTicks === 950);
  const high = rising.findIndex((p) => p.priceTicks === 1100);
  expect(low).toBeGreaterThan(0);
  expect(high).toBeGreaterThan(low);
  const falling = barPath(bar(0, '100', '110', '95', '97'), grid, 4);
  expect(falling.findIndex((p) => p.priceTicks === 1100)).toBeLessThan(falling.findIndex((p) => p.priceTicks === 950));
  for (const path of [rising, falling]) {
    for (let i = 1; i < path.length; i++) {
      expect(path[i]!.ts).toBeGreaterThanOrEqual(path[i - 1]!.ts);
      expect(path[i]!.priceTicks).not.toBe(path[i - 1]!.priceTicks);
    }
  }
  // A mark price with more decimals than the tick goes to the nearest tick.
  expect(barPath(bar(0, '100.04', '100.06', '100.04', '100.06', 'mark'), grid, 2).map((p) => p.priceTicks)).toEqual([1000, 1001]);
});
