import { silentLogger } from '../../../src/core/logger.js';
import type { MarketEvent } from '../../../src/model/market-events.js';
import { MarketFeed } from '../../../src/venue/market-ws/market-feed.js';
import type { FeedChannel } from '../../../src/venue/market-ws/market-feed.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, startSim } from '../../sim/e2e/sim-harness.js';
import { waitFor } from '../stream/session-harness.js';
import { settle } from './market-ws-harness.js';

/**
 * The daemon's market feed against the simulator: a `via: ws` channel rides the socket, falls back to
 * its poll while the socket is down or the topic silent, and returns once the socket delivers again;
 * every switch is reported; the events keep their shape whichever source carried them.
 */
let s: RunningSim;
let feed: MarketFeed | undefined;

beforeEach(async () => {
  s = await startSim({ tickMs: 1000 });
});
afterEach(async () => {
  feed?.stop();
  feed = undefined;
  await s.stop();
});

const CHANNELS: FeedChannel[] = [
  { symbol: BTC, channel: 'depth', everyMs: 1000, depthLimit: 20, via: 'ws', silentMs: 3000 },
  { symbol: BTC, channel: 'markPrice', everyMs: 1000, via: 'ws', silentMs: 3000 },
  { symbol: BTC, channel: 'trades', everyMs: 1000, via: 'ws', silentMs: 3000 },
  { symbol: BTC, channel: 'fundingRate', everyMs: 5000, via: 'ws' },
];

function start(backoffMs: number): { readonly events: MarketEvent[]; readonly switches: string[] } {
  const events: MarketEvent[] = [];
  const switches: string[] = [];
  feed = new MarketFeed({
    market: s.publicClient().market,
    time: s.clock,
    logger: silentLogger,
    channels: CHANNELS,
    socket: { streamUrl: s.sim.address.streamUrl, backoff: { initialMs: backoffMs, maxMs: backoffMs }, random: () => 0.5 },
    onSwitch: (change) => switches.push(`${change.key}->${change.to}`),
  });
  feed.arrivals$.subscribe(({ event }) => events.push(event));
  return { events, switches };
}

/** One virtual second, then the loopback traffic it caused (frames, polls, a reconnect). */
async function step(f: MarketFeed): Promise<void> {
  const before = f.stats().socket?.frames ?? 0;
  const polls = f.poller.stats().polls;
  s.clock.advanceBy(1000);
  await waitFor(() => f.session?.state !== 'connecting', 'the connect attempt to finish');
  await settle(() => (f.stats().socket?.frames ?? 0) > before || f.poller.stats().polls > polls, 500);
  await waitFor(() => f.poller.stats().channels.every((c) => !c.inFlight), 'the polls of the step');
}

function source(f: MarketFeed, key: string): string | undefined {
  return f.stats().channels.find((c) => c.key === key)?.source;
}

describe('market feed: socket with polling as the fallback', () => {
  it('starts with a snapshot of the mark price, before any book or trade (the risk engine needs it for the first order)', async () => {
    const { events } = start(10_000);
    const f = feed;
    if (f === undefined) throw new Error('no feed');
    await f.start();
    expect(events[0]?.type).toBe('market.markPrice');
    await step(f);
    expect(events.some((e) => e.type === 'market.book')).toBe(true);
  });

  it('a dropped socket sends its channels to polling, and they return when it reconnects; funding stays polled', async () => {
    const { events, switches } = start(10_000);
    const f = feed;
    if (f === undefined) throw new Error('no feed');
    await f.start();
    for (let i = 0; i < 5; i++) await step(f);
    expect(f.stats().channels.map((c) => [c.key, c.via, c.source])).toEqual([
      [`${BTC}/depth@20`, 'ws', 'ws'],
      [`${BTC}/markPrice`, 'ws', 'ws'],
      [`${BTC}/trades`, 'ws', 'ws'],
      [`${BTC}/fundingRate`, 'poll', 'poll'],
    ]);
    // Only funding polled so far, besides the mark price's one start-up snapshot.
    expect(f.poller.stats().channels.filter((c) => c.polls > 0).map((c) => [c.key, c.polls > 1 ? 'more' : 1])).toEqual([
      [`${BTC}/markPrice`, 1],
      [`${BTC}/fundingRate`, 'more'],
    ]);
    const socketBooks = events.filter((e) => e.type === 'market.book').length;
    expect(socketBooks).toBeGreaterThan(0);

    s.sim.marketWs.dropAll();
    await waitFor(() => f.session?.state === 'backoff', 'the feed to see the socket drop');
    await step(f);
    expect(source(f, `${BTC}/depth@20`)).toBe('poll');
    const pollsBefore = f.poller.stats().channels.find((c) => c.key === `${BTC}/depth@20`)?.polls ?? 0;
    for (let i = 0; i < 3; i++) await step(f);
    expect(f.poller.stats().channels.find((c) => c.key === `${BTC}/depth@20`)?.polls ?? 0).toBeGreaterThan(pollsBefore);

    // The backoff runs out: the socket reconnects, resubscribes, and every channel returns to it.
    for (let i = 0; i < 12 && source(f, `${BTC}/depth@20`) !== 'ws'; i++) await step(f);
    expect(f.stats().channels.map((c) => c.source)).toEqual(['ws', 'ws', 'ws', 'poll']);
    expect(f.stats().socket?.reconnects).toBe(1);
    expect(switches).toEqual(
      expect.arrayContaining([`${BTC}/depth@20->poll`, `${BTC}/markPrice->poll`, `${BTC}/trades->poll`, `${BTC}/depth@20->ws`, `${BTC}/markPrice->ws`, `${BTC}/trades->ws`]),
    );
    expect(switches).toHaveLength(6);
    // One shape whatever the source: books cut to the configured depth, trades once each.
    const books = events.filter((e) => e.type === 'market.book');
    expect(books.every((b) => b.bids.length <= 20 && b.asks.length <= 20 && b.bids.length > 0)).toBe(true);
    const tradeIds = events.flatMap((e) => (e.type === 'market.trade' ? [e.tradeId] : []));
    expect(new Set(tradeIds).size).toBe(tradeIds.length);
  });

  it('a silent topic falls back to polling, and returns when frames flow again', async () => {
    const { switches } = start(500);
    const f = feed;
    if (f === undefined) throw new Error('no feed');
    await f.start();
    for (let i = 0; i < 3; i++) await step(f);
    expect(source(f, `${BTC}/markPrice`)).toBe('ws');
    // Every pushed frame lost: the socket stays open, the topics go silent.
    expect(s.sim.http.faults.update({ marketFrameLossRate: 1 }).ok).toBe(true);
    for (let i = 0; i < 6; i++) await step(f);
    expect(f.stats().socket?.state).toBe('open');
    expect(source(f, `${BTC}/markPrice`)).toBe('poll');
    expect(switches).toContain(`${BTC}/markPrice->poll`);
    expect(s.sim.http.faults.update({ marketFrameLossRate: 0 }).ok).toBe(true);
    for (let i = 0; i < 10 && source(f, `${BTC}/markPrice`) !== 'ws'; i++) await step(f);
    expect(source(f, `${BTC}/markPrice`)).toBe('ws');
    expect(switches).toContain(`${BTC}/markPrice->ws`);
  });
});
