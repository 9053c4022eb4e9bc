import { dec } from '../../../src/core/decimal.js';
import type { DepthEvent } from '../../../src/sim/market-stream/events.js';
import { bookTickersSchema, priceTickersSchema, tickers24hSchema } from '../../../src/venue/parsers/market.js';
import type { FedMarket } from './market-fixture.js';
import { HOUR, MINUTE, MONTH_END, call, errorOf, feedMarket, okData, parsedBy, pricesOf, routeFor, contextFor, tradesOf } from './market-fixture.js';

let fed: FedMarket;
beforeAll(() => {
  fed = feedMarket({ hours: 3, start: MONTH_END });
});

function lastDepth(symbol: string): DepthEvent {
  const depth = fed.events.filter((e): e is DepthEvent => e.type === 'depth' && e.symbol === symbol).at(-1);
  if (depth === undefined) throw new Error('no depth');
  return depth;
}

/** The ticker recomputed from the trade prints whose minute is in the window. */
function bruteTicker(symbol: string, windowStart: number, multiplier: string) {
  const all = tradesOf(fed.events, symbol);
  const inWindow = all.filter((t) => t.ts >= windowStart);
  const first = inWindow[0];
  const last = all.at(-1);
  if (first === undefined || last === undefined) throw new Error('no trades in the window');
  let high = dec(first.price);
  let low = dec(first.price);
  let volume = dec(0);
  let quote = dec(0);
  for (const t of inWindow) {
    const p = dec(t.price);
    if (p.gt(high)) high = p;
    if (p.lt(low)) low = p;
    volume = volume.add(t.qty);
    quote = quote.add(p.mul(t.qty).mul(multiplier));
  }
  const open = dec(first.price);
  const close = dec(last.price);
  return {
    o: open.toFixed(),
    h: high.toFixed(),
    l: low.toFixed(),
    c: close.toFixed(),
    v: volume.toFixed(),
    qv: quote.toFixed(),
    pc: close.sub(open).toFixed(),
    pcp: close.sub(open).div(open).toDecimalPlaces(4).toFixed(),
  };
}

describe('contract 24h ticker', () => {
  it('rolls over the last 1440 minutes: fields equal a recomputation from the trades', () => {
    // Twenty-two hours after the last event the window has dropped the first hour of the feed.
    const now = fed.end + 22 * HOUR + 30_000;
    const windowStart = Math.floor(now / MINUTE) * MINUTE - 1439 * MINUTE;
    expect(windowStart).toBeGreaterThan(MONTH_END);
    for (const [symbol, multiplier] of [['BTC-SWAP-USDT', '0.001'], ['ETH-SWAP-USDT', '0.01']] as const) {
      const [row] = okData(call(fed, 'contractTicker24h', { symbol }, now)) as Record<string, unknown>[];
      const depth = lastDepth(symbol);
      expect(row).toEqual({
        t: now,
        s: symbol,
        ...bruteTicker(symbol, windowStart, multiplier),
        b: depth.bids[0]?.[0],
        a: depth.asks[0]?.[0],
        op: fed.service.openInterest(symbol)?.openInterestList[0]?.size,
      });
      const parsed = parsedBy(tickers24hSchema, row);
      expect(parsed[0]?.openInterest?.gt(0)).toBe(true);
    }
  });

  it('realtimeInterval 1d starts at 00:00 UTC, 1d+8 at 00:00 UTC+8', () => {
    const now = fed.end;
    const [utc] = okData(call(fed, 'contractTicker24h', { symbol: 'BTC-SWAP-USDT', realtimeInterval: '1d' }, now)) as Record<string, string>[];
    expect(utc).toMatchObject(bruteTicker('BTC-SWAP-USDT', Date.UTC(2026, 5, 1), '0.001'));
    const [utc8] = okData(call(fed, 'contractTicker24h', { symbol: 'BTC-SWAP-USDT', realtimeInterval: '1d+8' }, now)) as Record<string, string>[];
    expect(utc8).toMatchObject(bruteTicker('BTC-SWAP-USDT', Date.UTC(2026, 4, 31, 16), '0.001'));
    expect(errorOf(call(fed, 'contractTicker24h', { realtimeInterval: '2d' })).code).toBe(-1130);
  });

  it('all symbols without a symbol; weight 1 with one, 40 without', () => {
    const rows = parsedBy(tickers24hSchema, okData(call(fed, 'contractTicker24h')));
    expect(rows.map((r) => r.symbol)).toEqual(['BTC-SWAP-USDT', 'ETH-SWAP-USDT']);
    const route = routeFor(fed.routes, 'contractTicker24h');
    expect(route.weightOf?.(contextFor({ symbol: 'BTC-SWAP-USDT' }, 0).params)).toBe(1);
    expect(route.weightOf?.(contextFor({}, 0).params)).toBe(40);
    expect(routeFor(fed.routes, 'spotTicker24h').weightOf?.(contextFor({}, 0).params)).toBe(40);
  });

  it('contract routes refuse spot and unknown symbols with -100011', () => {
    expect(errorOf(call(fed, 'contractTicker24h', { symbol: 'BTCUSDT' })).code).toBe(-100011);
    expect(errorOf(call(fed, 'contractTickerPrice', { symbol: 'NOPE' })).code).toBe(-100011);
    expect(errorOf(call(fed, 'contractBookTicker', { symbol: 'NOPE' })).code).toBe(-100011);
  });
});

describe('price and book tickers', () => {
  it('price ticker is the last trade; book ticker the latest book touch', () => {
    const last = tradesOf(fed.events, 'ETH-SWAP-USDT').at(-1);
    expect(okData(call(fed, 'contractTickerPrice', { symbol: 'ETH-SWAP-USDT' }))).toEqual([{ s: 'ETH-SWAP-USDT', p: last?.price }]);
    const depth = lastDepth('ETH-SWAP-USDT');
    expect(okData(call(fed, 'contractBookTicker', { symbol: 'ETH-SWAP-USDT' }))).toEqual([
      { t: depth.ts, s: 'ETH-SWAP-USDT', b: depth.bids[0]?.[0], bq: depth.bids[0]?.[1], a: depth.asks[0]?.[0], aq: depth.asks[0]?.[1] },
    ]);
    expect(parsedBy(priceTickersSchema, okData(call(fed, 'contractTickerPrice')))).toHaveLength(2);
    expect(parsedBy(bookTickersSchema, okData(call(fed, 'contractBookTicker')))).toHaveLength(2);
  });

  it('spot routes answer contract symbols as the contract routes do (API-NOTES §5.5)', () => {
    for (const [spot, contract] of [['spotTicker24h', 'contractTicker24h'], ['spotTickerPrice', 'contractTickerPrice'], ['spotBookTicker', 'contractBookTicker']] as const) {
      expect(okData(call(fed, spot, { symbol: 'BTC-SWAP-USDT' }))).toEqual(okData(call(fed, contract, { symbol: 'BTC-SWAP-USDT' })));
    }
  });

  it('spot symbols (index tokens) are priced by the index, without volume', () => {
    const index = pricesOf(fed.events, 'index', 'BTC-SWAP-USDT').at(-1);
    expect(okData(call(fed, 'spotTickerPrice', { symbol: 'BTCUSDT' }))).toEqual([{ s: 'BTCUSDT', p: index?.price }]);
    const [ticker] = parsedBy(tickers24hSchema, okData(call(fed, 'spotTicker24h', { symbol: 'BTCUSDT' })));
    expect(ticker?.lastPrice.toFixed()).toBe(index?.price);
    expect(ticker?.volume.isZero()).toBe(true);
    expect(ticker?.openInterest).toBeUndefined();
    const [book] = parsedBy(bookTickersSchema, okData(call(fed, 'spotBookTicker', { symbol: 'ETHUSDT' })));
    expect(book?.bidPrice.eq(book.askPrice)).toBe(true);
    const all = parsedBy(tickers24hSchema, okData(call(fed, 'spotTicker24h')));
    expect(all.map((r) => r.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'BTC-SWAP-USDT', 'ETH-SWAP-USDT']);
    expect(errorOf(call(fed, 'spotTickerPrice', { symbol: 'XRPUSDT' })).code).toBe(-100011);
  });
});
