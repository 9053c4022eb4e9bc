import { klinesSchema, orderBookSchema, tradesSchema } from '../../../src/venue/parsers/market.js';
import type { FedMarket } from './market-fixture.js';
import { call, errorOf, feedMarket, okData, parsedBy } from './market-fixture.js';

/** Spot symbols exchangeInfo lists (index tokens): their book, trades and klines are served, not refused. */
let fed: FedMarket;
beforeAll(() => {
  fed = feedMarket({ hours: 1 });
});

describe('spot symbols', () => {
  it('are listed in exchangeInfo and answer depth, merged depth and trades (empty: the simulator runs no spot market)', () => {
    const info = fed.service.exchangeInfo(fed.end) as { symbols: { symbol: string }[] };
    expect(info.symbols.map((s) => s.symbol)).toContain('BTCUSDT');
    const book = parsedBy(orderBookSchema, okData(call(fed, 'depth', { symbol: 'BTCUSDT' })));
    expect([book.bids.length, book.asks.length]).toEqual([0, 0]);
    const merged = parsedBy(orderBookSchema, okData(call(fed, 'depthMerged', { symbol: 'BTCUSDT', scale: '1' })));
    expect([merged.bids.length, merged.asks.length]).toEqual([0, 0]);
    expect(parsedBy(tradesSchema, okData(call(fed, 'trades', { symbol: 'BTCUSDT' })))).toEqual([]);
  });

  it('klines are the index candles, without volume, at the ticker price', () => {
    const rows = parsedBy(klinesSchema('1m'), okData(call(fed, 'klines', { symbol: 'BTCUSDT', interval: '1m', startTime: '0', endTime: String(fed.end), limit: '1000' })));
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.every((k) => k.volume.isZero())).toBe(true);
    const index = okData(call(fed, 'indexKlines', { symbol: 'BTCUSDT', interval: '1m', from: '0', to: String(fed.end), limit: '2000' })) as { data: { t: number; c: string }[] };
    const last = rows.at(-1);
    expect(last?.close.toFixed()).toBe(index.data.at(-1)?.c);
    const price = [okData(call(fed, 'spotTickerPrice', { symbol: 'BTCUSDT' })) as { p: string } | { p: string }[]].flat()[0];
    expect(last?.close.toFixed()).toBe(price?.p);
  });

  it('a symbol that is neither spot nor contract is still -100011', () => {
    for (const name of ['depth', 'trades'] as const) expect(errorOf(call(fed, name, { symbol: 'XRPUSDT' })).code).toBe(-100011);
    expect(errorOf(call(fed, 'klines', { symbol: 'XRPUSDT', interval: '1m' })).code).toBe(-100011);
  });
});
