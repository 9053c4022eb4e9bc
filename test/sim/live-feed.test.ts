import { SimExchange } from '../../src/sim/engine/sim-exchange.js';
import type { OrderView, SimResult } from '../../src/sim/engine/types.js';
import { LiveMarketFeed } from '../../src/sim/live-feed.js';
import type { MarketEvent } from '../../src/sim/market-stream/events.js';
import { ACCOUNT, BTC, d, order, PARENT, T0 } from './engine/engine-support.js';

/**
 * The live feed (paper on the live market): what was pushed leaves in time order, a book older than
 * maxBookAge is withdrawn by an empty snapshot (so nothing fills against it), and a funding boundary
 * settles at its own time with the rate in force. All derived from the pushed events only.
 */

const MAX_AGE = 5000;
const H8 = 8 * 3_600_000;

const book = (ts: number, symbol = BTC): MarketEvent => ({ type: 'depth', ts, symbol, bids: [['99999.9', '5']], asks: [['100000', '2']] });
const print = (ts: number, id: string): MarketEvent => ({ type: 'trade', ts, symbol: BTC, id, price: '100000', qty: '0.1', buyerIsMaker: false });
const funding = (ts: number, rate: string, next: number): MarketEvent => ({ type: 'funding', ts, symbol: BTC, rate, nextFundingTime: next, period: '8H' });

/** Everything the feed hands the engine up to `time`. */
function drain(feed: LiveMarketFeed, time: number): MarketEvent[] {
  const out: MarketEvent[] = [];
  for (let next = feed.peekTime(); next !== undefined && next <= time; next = feed.peekTime()) out.push(feed.next());
  return out;
}

const brief = (e: MarketEvent): string => `${e.type}@${e.ts - T0}${e.type === 'depth' ? (e.bids.length + e.asks.length === 0 ? ' empty' : '') : ''}`;

describe('LiveMarketFeed: the staleness rule', () => {
  test('a book not refreshed within maxBookAge is withdrawn at exactly that age, and comes back with the next snapshot', () => {
    const feed = new LiveMarketFeed({ maxBookAgeMs: MAX_AGE });
    expect(feed.peekTime()).toBeUndefined();
    feed.push(book(T0 + 1000));
    expect(drain(feed, T0 + 1000).map(brief)).toEqual(['depth@1000']);
    expect(feed.hasBook(BTC, T0 + 6000)).toBe(true);
    expect(feed.peekTime()).toBe(T0 + 6000);
    expect(drain(feed, T0 + 5999)).toEqual([]);
    expect(drain(feed, T0 + 6000).map(brief)).toEqual(['depth@6000 empty']);
    expect(feed.hasBook(BTC, T0 + 6001)).toBe(false);
    expect(feed.counts.booksWithdrawn).toBe(1);
    expect(feed.peekTime()).toBeUndefined();
    feed.push(book(T0 + 9000));
    expect(drain(feed, T0 + 9000).map(brief)).toEqual(['depth@9000']);
    expect(feed.hasBook(BTC, T0 + 9000)).toBe(true);
  });

  test('a fresh snapshot within the age keeps the book; one exactly at the age is in time', () => {
    const feed = new LiveMarketFeed({ maxBookAgeMs: MAX_AGE });
    feed.push(book(T0));
    feed.push(book(T0 + 4000));
    feed.push(book(T0 + 9000));
    expect(drain(feed, T0 + 13_999).map(brief)).toEqual(['depth@0', 'depth@4000', 'depth@9000']);
    expect(feed.counts.booksWithdrawn).toBe(0);
    expect(feed.peekTime()).toBe(T0 + 14_000);
  });

  test('a gap the engine has not yet stepped through is still withdrawn at its time, before what arrived after it', () => {
    const feed = new LiveMarketFeed({ maxBookAgeMs: MAX_AGE });
    feed.push(book(T0));
    feed.push(print(T0 + 7000, 't1'));
    feed.push(book(T0 + 8000));
    expect(drain(feed, T0 + 8000).map(brief)).toEqual(['depth@0', 'depth@5000 empty', 'trade@7000', 'depth@8000']);
  });

  test('an empty snapshot from the exchange leaves no book to expire; an event pushed out of order is moved up', () => {
    const feed = new LiveMarketFeed({ maxBookAgeMs: MAX_AGE });
    feed.push({ type: 'depth', ts: T0, symbol: BTC, bids: [], asks: [] });
    feed.push(print(T0 + 100, 'a'));
    feed.push(print(T0 + 50, 'b'));
    expect(drain(feed, T0 + 60_000).map(brief)).toEqual(['depth@0 empty', 'trade@100', 'trade@100']);
  });

  test('maxBookAge must be positive', () => {
    expect(() => new LiveMarketFeed({ maxBookAgeMs: 0 })).toThrow(RangeError);
  });
});

describe('LiveMarketFeed: funding boundaries', () => {
  test('the boundary is emitted at its time with the rate in force; the next poll only updates the new interval', () => {
    const feed = new LiveMarketFeed({ maxBookAgeMs: MAX_AGE });
    const boundary = T0 + H8;
    feed.push(funding(T0, '0.0001', boundary));
    drain(feed, T0);
    expect(feed.peekTime()).toBe(boundary);
    const [settle] = drain(feed, boundary);
    expect(settle).toEqual({ type: 'funding', ts: boundary, symbol: BTC, rate: '0.0001', nextFundingTime: boundary + H8, period: '8H' });
    // A reply still naming the passed boundary is dropped; the new interval's rate goes through.
    expect(feed.push(funding(boundary + 1000, '0.0001', boundary))).toBe(false);
    expect(feed.push(funding(boundary + 2000, '-0.0002', boundary + H8))).toBe(true);
    expect(drain(feed, boundary + 2000).map((e) => (e.type === 'funding' ? `${e.rate}→${e.nextFundingTime - T0}` : e.type))).toEqual([`-0.0002→${2 * H8}`]);
    expect(feed.counts.fundingBoundaries).toBe(1);
  });

  test('a poll that already names the next boundary settles the interval itself: no boundary of the feed besides it', () => {
    const feed = new LiveMarketFeed({ maxBookAgeMs: MAX_AGE });
    const boundary = T0 + H8;
    feed.push(funding(T0, '0.0001', boundary));
    feed.push(funding(boundary, '0.0003', boundary + H8));
    expect(drain(feed, boundary).map((e) => (e.type === 'funding' ? `${e.ts - T0} ${e.rate}` : e.type))).toEqual(['0 0.0001', `${H8} 0.0003`]);
    expect(feed.counts.fundingBoundaries).toBe(0);
  });
});

describe('the simulator engine on a live feed', () => {
  function placed(result: SimResult<OrderView>): OrderView {
    if (!result.ok) throw new Error(`rejected: ${result.error.code} ${result.error.msg}`);
    return result.value;
  }

  function engineOn(feed: LiveMarketFeed): SimExchange {
    return new SimExchange({ startTime: T0, feed, users: [{ userId: PARENT, email: 'p@x.io', balances: { FUTURES: { USDT: '100000' } } }] });
  }

  test('a marketable order fills against a book within maxBookAge, and not against one older than it', () => {
    const feed = new LiveMarketFeed({ maxBookAgeMs: MAX_AGE });
    const ex = engineOn(feed);
    feed.push(book(T0 + 1000));
    feed.push({ type: 'mark', ts: T0 + 1000, symbol: BTC, price: '100000' });
    ex.advanceTo(T0 + 5900);
    const fresh = placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('100000'), quantity: d('1'), timeInForce: 'IOC' })));
    expect(fresh.executedQty).toBe('1');
    ex.advanceTo(T0 + 6001);
    const stale = ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('100000'), quantity: d('1'), timeInForce: 'IOC' }));
    // Against a withdrawn book nothing fills (the IOC order is cancelled unfilled, or refused outright).
    if (stale.ok) expect(stale.value.executedQty).toBe('0');
    feed.push(book(T0 + 7000));
    ex.advanceTo(T0 + 7000);
    expect(placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('100000'), quantity: d('1'), timeInForce: 'IOC' }))).executedQty).toBe('1');
  });

  test('a book that arrives once the engine has acted at its instant is stamped after that instant, as its recording is replayed', () => {
    const feed = new LiveMarketFeed({ maxBookAgeMs: MAX_AGE });
    const ex = engineOn(feed);
    const applied: MarketEvent[] = [];
    ex.onMarketEvent((event) => applied.push(event));
    feed.push(book(T0 + 1000));
    feed.push({ type: 'mark', ts: T0 + 1000, symbol: BTC, price: '100000' });
    ex.advanceTo(T0 + 2000);
    // The order at T0 + 2000 matched against the first book; a book arriving later in that same instant
    // cannot have been before it, so it is not recorded at T0 + 2000 (a backtest would apply it before the order).
    placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('100000'), quantity: d('1'), timeInForce: 'IOC' })));
    feed.push({ type: 'depth', ts: T0 + 2000, symbol: BTC, bids: [['99990', '5']], asks: [['99995', '2']] });
    expect(feed.peekTime()).toBe(T0 + 2001);
    ex.advanceTo(T0 + 2000);
    expect(applied.map(brief)).toEqual(['depth@1000', 'mark@1000']);
    ex.advanceTo(T0 + 2001);
    expect(applied.map(brief)).toEqual(['depth@1000', 'mark@1000', 'depth@2001']);
    // What arrives for a later instant keeps its own time.
    feed.push(book(T0 + 3000));
    expect(feed.peekTime()).toBe(T0 + 3000);
  });

  test('a position held over a funding boundary pays the published rate at the boundary, once', () => {
    const feed = new LiveMarketFeed({ maxBookAgeMs: H8 * 2 });
    const ex = engineOn(feed);
    feed.push(book(T0));
    feed.push({ type: 'mark', ts: T0, symbol: BTC, price: '100000' });
    feed.push(funding(T0, '0.0001', T0 + H8));
    ex.advanceTo(T0);
    placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('100000'), quantity: d('2'), timeInForce: 'IOC' })));
    ex.advanceTo(T0 + H8 + 60_000);
    feed.push(funding(T0 + H8 + 60_000, '0.0002', T0 + 2 * H8));
    ex.advanceTo(T0 + H8 + 120_000);
    const flows = ex.balanceFlows({ userId: PARENT, kind: 'FUNDING', startTime: T0, limit: 100 });
    // Long 2 contracts of 0.001 BTC at mark 100000, rate 0.0001: pays 0.02 USDT, at the boundary.
    expect(flows.map((f) => ({ at: f.created - T0, change: f.change }))).toEqual([{ at: H8, change: '-0.02' }]);
  });
});
