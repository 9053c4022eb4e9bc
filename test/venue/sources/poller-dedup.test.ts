import { decText } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { KlineUpdated, TradePrinted } from '../../../src/model/market-events.js';
import { MarketPoller } from '../../../src/venue/sources/market-poller.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, ETH, MINUTE, startSim, value } from '../../sim/e2e/sim-harness.js';
import { driveUntil } from './drive.js';

/** Trades and klines over many overlapping polls of the real simulator: each delivered once. */
let s: RunningSim;

beforeAll(async () => {
  s = await startSim();
});
afterAll(() => s.stop());

function tradeText(t: { time: number; price: { toFixed(): string }; qty: { toFixed(): string } }, side: string): string {
  return `${t.time}|${t.price.toFixed()}|${t.qty.toFixed()}|${side}`;
}

describe('trades', () => {
  it('are delivered once each over many overlapping polls, oldest first, none missed', async () => {
    const poller = new MarketPoller({ market: s.publicClient().market, time: s.clock, logger: silentLogger, channels: [{ symbol: ETH, channel: 'trades', everyMs: 500 }] });
    const trades: TradePrinted[] = [];
    poller.events$.subscribe((e) => {
      if (e.type === 'market.trade') trades.push(e);
    });
    poller.start();
    await driveUntil(s.clock, () => poller.stats().polls >= 120, '120 polls', 100);
    // Stop between polls, so the last reply has been taken in.
    await driveUntil(s.clock, () => poller.stats().channels[0]?.inFlight === false, 'no poll out', 10);
    poller.stop();
    const lastPollAt = poller.stats().channels[0]?.lastPollAt ?? 0;

    expect(trades.length).toBeGreaterThan(60); // more than one reply holds: dedup across many replies
    expect(new Set(trades.map((t) => t.tradeId)).size).toBe(trades.length);
    expect(trades.every((t, i) => i === 0 || t.time >= (trades[i - 1]?.time ?? 0))).toBe(true);

    // Every trade the exchange still lists, from the first delivered to the last poll, was delivered.
    const firstTime = trades[0]?.time ?? 0;
    const listed = value(await s.publicClient().market.trades({ symbol: ETH, limit: 60 })).filter((t) => t.time >= firstTime && t.time <= lastPollAt);
    const delivered = new Set(trades.map((t) => tradeText(t, t.takerSide)));
    expect(listed.length).toBeGreaterThan(0);
    for (const t of listed) expect(delivered.has(tradeText(t, t.isBuyerMaker ? 'SELL' : 'BUY'))).toBe(true);
  });
});

describe('klines', () => {
  it('a forming kline when it changes, each closed kline exactly once with its final values', async () => {
    const poller = new MarketPoller({
      market: s.publicClient().market,
      time: s.clock,
      logger: silentLogger,
      channels: [{ symbol: BTC, channel: 'klines', klineInterval: '1m', everyMs: 7000 }],
    });
    const klines: KlineUpdated[] = [];
    poller.events$.subscribe((e) => {
      if (e.type === 'market.kline') klines.push(e);
    });
    poller.start();
    await driveUntil(s.clock, () => klines.filter((k) => k.closed).length >= 6, 'six closed klines', 500);
    poller.stop();

    const closed = klines.filter((k) => k.closed);
    const openTimes = closed.map((k) => k.openTime);
    expect(new Set(openTimes).size).toBe(openTimes.length);
    expect(openTimes.every((t, i) => i === 0 || t === (openTimes[i - 1] ?? 0) + MINUTE)).toBe(true);
    for (const k of closed) {
      // Nothing of a kline comes after its closed delivery.
      const after = klines.slice(klines.indexOf(k) + 1).filter((x) => x.openTime === k.openTime);
      expect(after).toEqual([]);
    }
    // A forming kline is delivered again only when it changed.
    const forming = klines.filter((k) => !k.closed);
    const text = (k: KlineUpdated): string => [k.open, k.high, k.low, k.close, k.volume].map(decText).join('|');
    forming.forEach((k, i) => {
      const previous = forming.slice(0, i).filter((x) => x.openTime === k.openTime).pop();
      if (previous !== undefined) expect(text(previous)).not.toBe(text(k));
    });
    expect(forming.length).toBeGreaterThan(0);

    // Closed klines carry the exchange's final candle.
    const first = closed[0]?.openTime ?? 0;
    const wire = value(await s.publicClient().market.klines({ symbol: BTC, interval: '1m', startTime: first, limit: closed.length }));
    expect(wire.map((w) => w.openTime)).toEqual(openTimes);
    wire.forEach((w, i) => {
      const k = closed[i];
      expect(k !== undefined && w.open.eq(k.open) && w.high.eq(k.high) && w.low.eq(k.low) && w.close.eq(k.close) && w.volume.eq(k.volume)).toBe(true);
    });
  });
});
