import { Decimal, dec } from '../../../src/core/decimal.js';
import type { TradeEvent } from '../../../src/sim/market-stream/events.js';
import { indexKlinesSchema, klinesSchema, markPriceKlinesSchema } from '../../../src/venue/parsers/market.js';
import type { KlineInterval } from '../../../src/protocol/market-params.js';
import type { FedMarket } from './market-fixture.js';
import { HOUR, INSTRUMENTS, MINUTE, MONTH_END, call, errorOf, feedMarket, okData, parsedBy, pricesOf, tradesOf } from './market-fixture.js';

const DAY = 24 * HOUR;

/** Candle open time, computed independently of the service: UTC-aligned, weeks from Monday, months by calendar. */
function openOf(ts: number, interval: KlineInterval): number {
  const fixed: Record<string, number> = {
    '1m': MINUTE, '3m': 3 * MINUTE, '5m': 5 * MINUTE, '15m': 15 * MINUTE, '30m': 30 * MINUTE,
    '1h': HOUR, '2h': 2 * HOUR, '4h': 4 * HOUR, '6h': 6 * HOUR, '8h': 8 * HOUR, '12h': 12 * HOUR, '1d': DAY,
  };
  if (interval === '1M') {
    const d = new Date(ts);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  if (interval === '1w') {
    const monday = 4 * DAY; // 1970-01-05
    return Math.floor((ts - monday) / (7 * DAY)) * 7 * DAY + monday;
  }
  const length = fixed[interval];
  if (length === undefined) throw new Error(interval);
  return Math.floor(ts / length) * length;
}

interface BruteCandle {
  openTime: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal;
  quote: Decimal;
  trades: number;
  takerVolume: Decimal;
  takerQuote: Decimal;
}

interface DecimalTrade {
  readonly ts: number;
  readonly price: Decimal;
  readonly qty: Decimal;
  readonly quote: Decimal;
  readonly takerBuy: boolean;
}

function decimalTrades(trades: readonly TradeEvent[], multiplier: string): DecimalTrade[] {
  return trades.map((t) => {
    const price = dec(t.price);
    const qty = dec(t.qty);
    return { ts: t.ts, price, qty, quote: price.mul(qty).mul(multiplier), takerBuy: !t.buyerIsMaker };
  });
}

/** OHLCV recomputed with decimal.js from the trade prints. */
function bruteKlines(trades: readonly DecimalTrade[], interval: KlineInterval): BruteCandle[] {
  const out: BruteCandle[] = [];
  for (const t of trades) {
    const openTime = openOf(t.ts, interval);
    const { price, qty, quote } = t;
    let c = out[out.length - 1];
    if (c === undefined || c.openTime !== openTime) {
      c = { openTime, open: price, high: price, low: price, close: price, volume: dec(0), quote: dec(0), trades: 0, takerVolume: dec(0), takerQuote: dec(0) };
      out.push(c);
    }
    c.high = Decimal.max(c.high, price);
    c.low = Decimal.min(c.low, price);
    c.close = price;
    c.volume = c.volume.add(qty);
    c.quote = c.quote.add(quote);
    c.trades++;
    if (t.takerBuy) {
      c.takerVolume = c.takerVolume.add(qty);
      c.takerQuote = c.takerQuote.add(quote);
    }
  }
  return out;
}

// Two hours from Sunday 23:00 UTC at the end of May: new day, week and month at the first hour.
const HOURS = 2;
let fed: FedMarket;
let trades: ReadonlyMap<string, DecimalTrade[]>;
beforeAll(() => {
  fed = feedMarket({ hours: HOURS, start: MONTH_END });
  trades = new Map(INSTRUMENTS.map((i) => [i.symbol, decimalTrades(tradesOf(fed.events, i.symbol), i.contractMultiplier)]));
});

describe('trade klines', () => {
  it.each(['1m', '5m', '15m', '1h', '4h', '1d', '1w', '1M'] as const)('%s OHLCV equals a brute-force recomputation from the trades', (interval) => {
    for (const instrument of INSTRUMENTS) {
      const expected = bruteKlines(trades.get(instrument.symbol) ?? [], interval);
      const data = okData(call(fed, 'klines', { symbol: instrument.symbol, interval, startTime: '0', limit: '1000' }));
      const rows = parsedBy(klinesSchema(interval), data);
      expect(rows.length).toBe(expected.length);
      expect(expected.length).toBe(interval === '1m' ? HOURS * 60 : interval === '5m' ? HOURS * 12 : interval === '15m' ? HOURS * 4 : interval === '1h' ? HOURS : 2);
      rows.forEach((row, i) => {
        const want = expected[i];
        if (want === undefined) throw new Error('missing');
        expect(row.openTime).toBe(want.openTime);
        expect([row.open, row.high, row.low, row.close].map((d) => d.toFixed())).toEqual([want.open, want.high, want.low, want.close].map((d) => d.toFixed()));
        expect(row.volume.toFixed()).toBe(want.volume.toFixed());
        expect(row.quoteVolume.toFixed()).toBe(want.quote.toFixed());
        expect(row.trades).toBe(want.trades);
        expect(row.takerBuyVolume?.toFixed()).toBe(want.takerVolume.toFixed());
        expect(row.takerBuyQuoteVolume?.toFixed()).toBe(want.takerQuote.toFixed());
      });
    }
  });

  it('wire row: 11 elements, numbers for times and count, close time 0, decimals as text', () => {
    const [row] = okData(call(fed, 'klines', { symbol: 'BTC-SWAP-USDT', interval: '1h', startTime: String(MONTH_END) })) as unknown[][];
    expect(row).toHaveLength(11);
    expect(row?.map((v) => typeof v)).toEqual(['number', 'string', 'string', 'string', 'string', 'string', 'number', 'string', 'number', 'string', 'string']);
    expect(row?.[6]).toBe(0);
  });

  it('without startTime and endTime only the latest kline; endTime alone gives the last `limit` up to it', () => {
    const latest = okData(call(fed, 'klines', { symbol: 'BTC-SWAP-USDT', interval: '1m', limit: '50' })) as unknown[][];
    expect(latest).toHaveLength(1);
    expect(latest[0]?.[0]).toBe(openOf(fed.end - 1, '1m'));
    const endTime = MONTH_END + HOUR + 30 * MINUTE;
    const upTo = okData(call(fed, 'klines', { symbol: 'BTC-SWAP-USDT', interval: '1m', endTime: String(endTime), limit: '30' })) as number[][];
    expect(upTo).toHaveLength(30);
    expect(upTo[29]?.[0]).toBe(endTime);
    expect(upTo[0]?.[0]).toBe(endTime - 29 * MINUTE);
    const between = okData(call(fed, 'klines', { symbol: 'BTC-SWAP-USDT', interval: '1h', startTime: String(MONTH_END), endTime: String(MONTH_END + HOUR) })) as number[][];
    expect(between.map((r) => r[0])).toEqual([MONTH_END, MONTH_END + HOUR]);
  });

  it('limit defaults to 1000 and is clamped to 1..1000', () => {
    const all = okData(call(fed, 'klines', { symbol: 'ETH-SWAP-USDT', interval: '1m', startTime: '0' })) as unknown[];
    expect(all.length).toBe(HOURS * 60);
    const capped = okData(call(fed, 'klines', { symbol: 'ETH-SWAP-USDT', interval: '1m', startTime: '0', limit: '5000' })) as unknown[];
    expect(capped.length).toBe(HOURS * 60);
    const one = okData(call(fed, 'klines', { symbol: 'ETH-SWAP-USDT', interval: '1m', startTime: '0', limit: '0' })) as unknown[];
    expect(one.length).toBe(1);
  });

  it('refuses a bad or missing interval, a missing or unknown symbol, a non-integer time', () => {
    expect(errorOf(call(fed, 'klines', { symbol: 'BTC-SWAP-USDT', interval: '2m' })).code).toBe(-1120);
    expect(errorOf(call(fed, 'klines', { symbol: 'BTC-SWAP-USDT' }))).toEqual({ code: -100012, msg: 'Parameter interval [String] missing!' });
    expect(errorOf(call(fed, 'klines', { interval: '1m' }))).toEqual({ code: -100012, msg: 'Parameter symbol [String] missing!' });
    expect(errorOf(call(fed, 'klines', { symbol: 'DOGE-SWAP-USDT', interval: '1m' })).code).toBe(-100011);
    expect(errorOf(call(fed, 'klines', { symbol: 'BTC-SWAP-USDT', interval: '1m', startTime: 'yesterday' })).code).toBe(-1130);
  });
});

describe('index and mark-price klines', () => {
  function brutePrices(type: 'index' | 'mark', symbol: string, interval: KlineInterval): { openTime: number; o: string; h: string; l: string; c: string }[] {
    const out: { openTime: number; o: string; h: string; l: string; c: string }[] = [];
    for (const e of pricesOf(fed.events, type, symbol)) {
      const openTime = openOf(e.ts, interval);
      const last = out[out.length - 1];
      if (last === undefined || last.openTime !== openTime) out.push({ openTime, o: e.price, h: e.price, l: e.price, c: e.price });
      else {
        if (dec(e.price).gt(last.h)) last.h = e.price;
        if (dec(e.price).lt(last.l)) last.l = e.price;
        last.c = e.price;
      }
    }
    return out;
  }

  it.each(['1m', '1h', '4h'] as const)('%s index candles (by index token) equal the index events; {code, data}', (interval) => {
    const expected = brutePrices('index', 'BTC-SWAP-USDT', interval);
    const data = okData(call(fed, 'indexKlines', { symbol: 'BTCUSDT', interval, from: '0', to: String(fed.end) }));
    expect(data).toMatchObject({ code: 200 });
    const rows = parsedBy(indexKlinesSchema, data);
    expect(rows.map((r) => ({ openTime: r.openTime, o: r.open.toFixed(), h: r.high.toFixed(), l: r.low.toFixed(), c: r.close.toFixed() }))).toEqual(expected);
    expect(rows.every((r) => r.symbol === 'BTCUSDT' && r.symbolName === 'BTCUSDT' && r.volume?.isZero() === true && r.responseTime === fed.end)).toBe(true);
  });

  it.each(['1m', '1h'] as const)('%s mark candles equal the mark events; change = (index − mark) / mark', (interval) => {
    const expected = brutePrices('mark', 'ETH-SWAP-USDT', interval);
    const index = brutePrices('index', 'ETH-SWAP-USDT', interval);
    const data = okData(call(fed, 'markPriceKlines', { symbol: 'ETH-SWAP-USDT', interval, from: '0', to: String(fed.end) }));
    const rows = parsedBy(markPriceKlinesSchema, data);
    expect(rows.map((r) => ({ openTime: r.time, o: r.open.toFixed(), h: r.high.toFixed(), l: r.low.toFixed(), c: r.close.toFixed() }))).toEqual(expected);
    rows.forEach((r, i) => {
      const ic = index[i]?.c ?? '0';
      expect(r.change?.toFixed()).toBe(dec(ic).sub(r.close).div(r.close).toDecimalPlaces(8).toFixed());
      expect(r.klineType).toBe(interval);
      expect(r.curId).toBe(String(r.time));
    });
  });

  it('from/to select a range; startTime/endTime are accepted as aliases; limit clamps to 2000', () => {
    const from = MONTH_END + HOUR;
    const to = MONTH_END + HOUR + 9 * MINUTE;
    const data = okData(call(fed, 'indexKlines', { symbol: 'ETHUSDT', interval: '1m', from: String(from), to: String(to) })) as { data: { t: number }[] };
    expect(data.data.map((r) => r.t)).toEqual(Array.from({ length: 10 }, (_, i) => from + i * MINUTE));
    const aliased = okData(call(fed, 'markPriceKlines', { symbol: 'ETH-SWAP-USDT', interval: '1m', startTime: String(from), endTime: String(to), limit: '3' })) as { data: { time: number }[] };
    expect(aliased.data.map((r) => r.time)).toEqual([from, from + MINUTE, from + 2 * MINUTE]);
    const all = okData(call(fed, 'indexKlines', { symbol: 'BTCUSDT', interval: '1m', from: '0', to: String(fed.end), limit: '99999' })) as { data: unknown[] };
    expect(all.data).toHaveLength(HOURS * 60);
  });

  it('from and to are required (document 001): without either, -100012 naming it', () => {
    for (const name of ['indexKlines', 'markPriceKlines'] as const) {
      const symbol = name === 'indexKlines' ? 'BTCUSDT' : 'BTC-SWAP-USDT';
      expect(errorOf(call(fed, name, { symbol, interval: '1m' }))).toMatchObject({ code: -100012, msg: 'Parameter from [Long] missing!' });
      expect(errorOf(call(fed, name, { symbol, interval: '1m', from: '0' }))).toMatchObject({ code: -100012, msg: 'Parameter to [Long] missing!' });
      expect(errorOf(call(fed, name, { symbol, interval: '1m', to: '1' })).code).toBe(-100012);
    }
  });

  it('unknown symbol and bad interval are refused', () => {
    expect(errorOf(call(fed, 'indexKlines', { symbol: 'XYZUSDT', interval: '1m', from: '0', to: '1' })).code).toBe(-100011);
    expect(errorOf(call(fed, 'markPriceKlines', { symbol: 'ETH-SWAP-USDT', interval: '7m', from: '0', to: '1' })).code).toBe(-1120);
  });
});
