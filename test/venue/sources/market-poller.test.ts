import { silentLogger } from '../../../src/core/logger.js';
import type { MarketEvent, MarketEventType } from '../../../src/model/market-events.js';
import { ExchangeClient } from '../../../src/venue/exchange-client.js';
import { createGotHttp } from '../../../src/venue/got-http.js';
import type { PollChannel } from '../../../src/venue/sources/market-poller.js';
import { MarketPoller } from '../../../src/venue/sources/market-poller.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, ETH, MINUTE, startSim } from '../../sim/e2e/sim-harness.js';
import { requestCount, setFaults } from '../port/admin-faults.js';
import { drive, driveUntil } from './drive.js';
import { RecordingHttp } from './recording-http.js';

/** The market poller against the real simulator over loopback, in virtual time. */
let s: RunningSim;

beforeAll(async () => {
  s = await startSim();
});
afterAll(() => s.stop());

function collect(poller: MarketPoller): MarketEvent[] {
  const events: MarketEvent[] = [];
  poller.events$.subscribe((e) => events.push(e));
  return events;
}

function ofType<T extends MarketEventType>(events: readonly MarketEvent[], type: T): Extract<MarketEvent, { type: T }>[] {
  return events.filter((e): e is Extract<MarketEvent, { type: T }> => e.type === type);
}

const ALL: readonly PollChannel['channel'][] = ['depth', 'trades', 'klines', 'bookTicker', 'ticker24h', 'markPrice', 'index', 'fundingRate', 'openInterest'];

describe('every channel', () => {
  it('yields well-formed events of its symbol', async () => {
    const poller = new MarketPoller({
      market: s.publicClient().market,
      time: s.clock,
      logger: silentLogger,
      channels: ALL.map((channel) => ({ symbol: BTC, channel, everyMs: 1000, ...(channel === 'klines' ? { klineInterval: '1m' as const } : {}), ...(channel === 'depth' ? { depthLimit: 20 } : {}) })),
    });
    const events = collect(poller);
    poller.start();
    await driveUntil(s.clock, () => poller.stats().channels.every((c) => c.events > 0 && c.polls >= 3), 'an event from every channel');
    poller.stop();
    const now = s.clock.now();
    expect(poller.stats().failures).toBe(0);
    expect(events.every((e) => e.symbol === BTC && e.time <= now && e.time > now - MINUTE)).toBe(true);

    const [book] = ofType(events, 'market.book');
    expect(book?.bids.length).toBe(20);
    expect(book?.bids.every((l, i, all) => l.qty.gt(0) && (i === 0 || l.price.lt(all[i - 1]?.price ?? 0)))).toBe(true);
    expect(book?.asks.every((l, i, all) => l.qty.gt(0) && (i === 0 || l.price.gt(all[i - 1]?.price ?? 0)))).toBe(true);
    expect(book?.bids[0]?.price.lt(book.asks[0]?.price ?? 0)).toBe(true);

    const trades = ofType(events, 'market.trade');
    expect(trades.every((t) => t.price.gt(0) && t.qty.gt(0) && (t.takerSide === 'BUY' || t.takerSide === 'SELL') && t.tradeId !== '')).toBe(true);

    const [kline] = ofType(events, 'market.kline');
    expect(kline).toMatchObject({ interval: '1m' });
    expect(kline?.closeTime).toBe((kline?.openTime ?? 0) + MINUTE - 1);
    expect(kline?.high.gte(kline.low)).toBe(true);

    const [ticker] = ofType(events, 'market.bookTicker');
    expect(ticker?.bidPrice.lt(ticker.askPrice)).toBe(true);
    const [day] = ofType(events, 'market.ticker24h');
    expect(day?.high.gte(day.low) && day.last.gt(0) && day.volume.gte(0)).toBe(true);
    const [mark] = ofType(events, 'market.markPrice');
    expect(mark?.price.gt(0)).toBe(true);
    const [index] = ofType(events, 'market.indexPrice');
    expect(index?.price.gt(0)).toBe(true);
    const [funding] = ofType(events, 'market.fundingRate');
    expect(funding?.nextFundingTime).toBeGreaterThan(now - MINUTE);
    expect(funding?.rate.abs().lt(1)).toBe(true);
    const [oi] = ofType(events, 'market.openInterest');
    expect(oi?.openInterest.gte(0)).toBe(true);
  });
});

describe('index token', () => {
  it('is read from exchangeInfo once for all index channels, or not at all when given', async () => {
    const before = await requestCount(s, 'GET /api/v1/exchangeInfo');
    const learned = new MarketPoller({
      market: s.publicClient().market,
      time: s.clock,
      logger: silentLogger,
      channels: [BTC, ETH].map((symbol) => ({ symbol, channel: 'index' as const, everyMs: 1000 })),
    });
    const events = collect(learned);
    learned.start();
    await driveUntil(s.clock, () => learned.stats().channels.every((c) => c.events >= 3), 'three index prices per symbol');
    learned.stop();
    expect(await requestCount(s, 'GET /api/v1/exchangeInfo')).toBe(before + 1);
    expect(new Set(events.map((e) => e.symbol))).toEqual(new Set([BTC, ETH]));

    const given = new MarketPoller({
      market: s.publicClient().market,
      time: s.clock,
      logger: silentLogger,
      channels: [{ symbol: BTC, channel: 'index', everyMs: 1000 }],
      indexTokenOf: (symbol) => (symbol === BTC ? 'BTCUSDT' : undefined),
    });
    given.start();
    await driveUntil(s.clock, () => given.stats().events >= 2, 'index prices');
    given.stop();
    expect(await requestCount(s, 'GET /api/v1/exchangeInfo')).toBe(before + 1);
  });
});

describe('index token refresh', () => {
  it('indexTokenOf is asked at every poll: a refreshed instrument list takes effect at the next poll', async () => {
    // As the daemon wires it: the kernel's instruments, replaced at every exchangeInfo refresh.
    const tokens = new Map([[BTC, 'BTCUSDT']]);
    const poller = new MarketPoller({
      market: s.publicClient().market,
      time: s.clock,
      logger: silentLogger,
      channels: [{ symbol: BTC, channel: 'index', everyMs: 1000 }],
      indexTokenOf: (symbol) => tokens.get(symbol),
    });
    poller.start();
    await driveUntil(s.clock, () => poller.stats().events >= 1, 'a BTC index price');
    // A refresh renames the index: the next poll looks for the new key in GET /quote/v1/index.
    tokens.set(BTC, 'BTCUSDT2');
    await driveUntil(s.clock, () => poller.stats().failures >= 1, 'a poll under the new token');
    expect(poller.stats().channels[0]?.lastError).toContain('BTCUSDT2');
    tokens.set(BTC, 'BTCUSDT');
    const events = poller.stats().events;
    await driveUntil(s.clock, () => poller.stats().events > events, 'index prices again');
    poller.stop();
  });
});

describe('failures and weight', () => {
  afterEach(() => setFaults(s, { http5xxRate: 0 }));

  it('a failed poll is counted and retried at the next slot; events resume', async () => {
    const poller = new MarketPoller({ market: s.publicClient().market, time: s.clock, logger: silentLogger, channels: [{ symbol: ETH, channel: 'markPrice', everyMs: 2000 }] });
    poller.start();
    await driveUntil(s.clock, () => poller.stats().events >= 1, 'a mark price');
    await setFaults(s, { http5xxRate: 1 });
    await driveUntil(s.clock, () => poller.stats().failures >= 3, 'three failed polls');
    const [during] = poller.stats().channels;
    expect(during?.lastError).toBeDefined();
    await setFaults(s, { http5xxRate: 0 });
    const eventsBefore = poller.stats().events;
    await driveUntil(s.clock, () => poller.stats().events >= eventsBefore + 2, 'mark prices again');
    poller.stop();
    const [after] = poller.stats().channels;
    expect(after?.lastError).toBeUndefined();
    expect(after?.polls).toBe((after?.failures ?? 0) + (after?.events ?? 0));
  });

  it('request weight goes through the client governor (depth 500 weighs 5)', async () => {
    // A client of its own: its governor has seen nothing but these polls.
    const client = s.publicClient();
    const poller = new MarketPoller({ market: client.market, time: s.clock, logger: silentLogger, channels: [{ symbol: BTC, channel: 'depth', everyMs: 5000, depthLimit: 500 }] });
    poller.start();
    await driveUntil(s.clock, () => poller.stats().polls >= 4, 'four depth polls', 500);
    poller.stop();
    const { polls } = poller.stats();
    expect(client.governor.snapshot().weightUsed).toBe(5 * polls);
  });

  it('refuses a wrong channel list before sending anything', () => {
    const base = { market: s.publicClient().market, time: s.clock, logger: silentLogger };
    expect(() => new MarketPoller({ ...base, channels: [{ symbol: BTC, channel: 'klines', everyMs: 1000 }] })).toThrow(/klineInterval/);
    expect(() => new MarketPoller({ ...base, channels: [{ symbol: BTC, channel: 'depth', everyMs: 1000, depthLimit: 7 }] })).toThrow(/depthLimit/);
    expect(() => new MarketPoller({ ...base, channels: [{ symbol: BTC, channel: 'trades', everyMs: 0 }] })).toThrow(/everyMs/);
    const twice: PollChannel = { symbol: BTC, channel: 'trades', everyMs: 1000 };
    expect(() => new MarketPoller({ ...base, channels: [twice, twice] })).toThrow(/twice/);
  });
});

describe('overlap', () => {
  afterEach(() => setFaults(s, { latencyMs: 0 }));

  it('a reply slower than the interval delays the next poll; polls of a channel never stack', async () => {
    const http = new RecordingHttp(createGotHttp());
    const client = new ExchangeClient({ baseUrl: s.sim.address.baseUrl, time: s.clock, timeoutMs: 10_000, http });
    const poller = new MarketPoller({
      market: client.market,
      time: s.clock,
      logger: silentLogger,
      channels: [
        { symbol: BTC, channel: 'depth', everyMs: 1000, depthLimit: 5 },
        { symbol: BTC, channel: 'bookTicker', everyMs: 1000 },
      ],
    });
    await setFaults(s, { latencyMs: 5000 });
    const depthBefore = await requestCount(s, 'GET /quote/v1/depth');
    poller.start();
    const started = s.clock.now();
    await drive(s.clock, MINUTE, 250);
    poller.stop();
    await setFaults(s, { latencyMs: 0 });
    await drive(s.clock, 6000, 250); // the last replies come home
    const elapsed = s.clock.now() - started;

    expect(http.maxConcurrent.get('/quote/v1/depth')).toBe(1);
    expect(http.maxConcurrent.get('/quote/v1/contract/ticker/bookTicker')).toBe(1);
    const sent = http.sent.get('/quote/v1/depth') ?? 0;
    // One request per 5 s reply at most, not one per 1 s interval.
    expect(sent).toBeLessThanOrEqual(Math.floor(elapsed / 5000) + 1);
    expect(sent).toBeGreaterThanOrEqual(3);
    expect((await requestCount(s, 'GET /quote/v1/depth')) - depthBefore).toBe(sent);
  });
});
