import { dec } from '../../../src/core/decimal.js';
import type { DepthEvent } from '../../../src/sim/market-stream/events.js';
import { orderBookSchema, tradesSchema } from '../../../src/venue/parsers/market.js';
import type { FedMarket } from './market-fixture.js';
import { call, contextFor, errorOf, feedMarket, okData, parsedBy, routeFor, tradesOf } from './market-fixture.js';

let fed: FedMarket;
let book: DepthEvent;
beforeAll(() => {
  fed = feedMarket({ hours: 1 });
  const last = fed.events.filter((e): e is DepthEvent => e.type === 'depth' && e.symbol === 'BTC-SWAP-USDT').at(-1);
  if (last === undefined) throw new Error('no depth');
  book = last;
});

describe('depth', () => {
  it('the latest snapshot: t number, bids high→low, asks low→high, [price, contracts] text', () => {
    const data = okData(call(fed, 'depth', { symbol: 'BTC-SWAP-USDT' }));
    expect(data).toEqual({ t: book.ts, b: book.bids, a: book.asks });
    const parsed = parsedBy(orderBookSchema, data);
    expect(parsed.bids.length).toBe(12);
    for (let i = 1; i < parsed.bids.length; i++) expect(parsed.bids[i]?.price.lt(parsed.bids[i - 1]?.price ?? 0)).toBe(true);
    for (let i = 1; i < parsed.asks.length; i++) expect(parsed.asks[i]?.price.gt(parsed.asks[i - 1]?.price ?? 0)).toBe(true);
  });

  it('limit cuts each side; 0 and values above 1000 give the whole book; negative is -1130', () => {
    const five = okData(call(fed, 'depth', { symbol: 'BTC-SWAP-USDT', limit: '5' })) as { b: unknown[]; a: unknown[] };
    expect([five.b.length, five.a.length]).toEqual([5, 5]);
    expect(five.b).toEqual(book.bids.slice(0, 5));
    for (const limit of ['0', '1000', '5000']) {
      const all = okData(call(fed, 'depth', { symbol: 'BTC-SWAP-USDT', limit })) as { b: unknown[] };
      expect(all.b).toHaveLength(12);
    }
    expect(errorOf(call(fed, 'depth', { symbol: 'BTC-SWAP-USDT', limit: '-5' })).code).toBe(-1130);
  });

  it('weight by limit: up to 100 is 1, 500 is 5, 1000 and 0 are 10', () => {
    const route = routeFor(fed.routes, 'depth');
    const weight = (limit?: string): number | undefined => route.weightOf?.(contextFor(limit === undefined ? { symbol: 'X' } : { symbol: 'X', limit }, 0).params);
    expect([weight(), weight('100'), weight('500'), weight('1000'), weight('0')]).toEqual([1, 1, 5, 10, 10]);
  });

  it('missing symbol -100012, unknown -100011', () => {
    expect(errorOf(call(fed, 'depth'))).toEqual({ code: -100012, msg: 'Parameter symbol [String] missing!' });
    expect(errorOf(call(fed, 'depth', { symbol: 'FOO' }))).toEqual({ code: -100011, msg: 'Not supported symbols' });
  });

  it('merged depth sums sizes into gears of 10^scale ticks (bids down, asks up)', () => {
    const merged = parsedBy(orderBookSchema, okData(call(fed, 'depthMerged', { symbol: 'BTC-SWAP-USDT', scale: '1' })));
    const total = (levels: readonly (readonly [string, string])[]) => levels.reduce((s, [, q]) => s.add(q), dec(0)).toFixed();
    expect(merged.bids.reduce((s, l) => s.add(l.qty), dec(0)).toFixed()).toBe(total(book.bids));
    expect(merged.asks.reduce((s, l) => s.add(l.qty), dec(0)).toFixed()).toBe(total(book.asks));
    expect(merged.bids.every((l) => l.price.mod(1).isZero())).toBe(true);
    expect(merged.bids[0]?.price.toFixed()).toBe(dec(book.bids[0]?.[0] ?? '0').floor().toFixed());
    expect(merged.asks[0]?.price.toFixed()).toBe(dec(book.asks[0]?.[0] ?? '0').ceil().toFixed());
    const plain = okData(call(fed, 'depthMerged', { symbol: 'BTC-SWAP-USDT', scale: '0', limit: '3' })) as { b: unknown[] };
    expect(plain.b).toEqual(book.bids.slice(0, 3));
    expect(errorOf(call(fed, 'depthMerged', { symbol: 'BTC-SWAP-USDT', scale: '6' })).code).toBe(-1130);
  });
});

describe('recent trades', () => {
  it('the newest 60 by default, oldest first, t/p/q/ibm as the prints', () => {
    const prints = tradesOf(fed.events, 'ETH-SWAP-USDT').slice(-60);
    const data = okData(call(fed, 'trades', { symbol: 'ETH-SWAP-USDT' }));
    expect(data).toEqual(prints.map((t) => ({ t: t.ts, p: t.price, q: t.qty, ibm: t.buyerIsMaker })));
    expect(parsedBy(tradesSchema, data)).toHaveLength(60);
  });

  it('limit is clamped to 1..60', () => {
    expect(okData(call(fed, 'trades', { symbol: 'ETH-SWAP-USDT', limit: '7' }))).toHaveLength(7);
    expect(okData(call(fed, 'trades', { symbol: 'ETH-SWAP-USDT', limit: '1000' }))).toHaveLength(60);
    expect(okData(call(fed, 'trades', { symbol: 'ETH-SWAP-USDT', limit: '0' }))).toHaveLength(1);
    expect(errorOf(call(fed, 'trades', { symbol: 'ETH-SWAP-USDT', limit: 'ten' })).code).toBe(-1130);
  });

  it('the service keeps more trades, with their ids, in a ring buffer', () => {
    const prints = tradesOf(fed.events, 'BTC-SWAP-USDT');
    const kept = fed.service.recentTrades('BTC-SWAP-USDT', 5000) ?? [];
    expect(kept).toHaveLength(1000);
    expect(kept.map((t) => t.id)).toEqual(prints.slice(-1000).map((t) => t.id));
  });
});
