import type { DepthEvent } from '../../../src/sim/market-stream/events.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, ETH, startSim, value } from '../../sim/e2e/sim-harness.js';
import { waitFor } from '../stream/session-harness.js';
import { RecordedMarketSession, settle } from './market-ws-harness.js';

/**
 * The client's local books from the simulator's `diffDepth` socket against the exchange's own book:
 * under lost and reordered frames, sequence gaps and dropped sockets, every book the client serves is
 * the exchange's book at that instant, and once the faults stop it converges on what REST answers.
 */
let s: RunningSim;
let recorded: RecordedMarketSession | undefined;
/** The exchange's books by symbol and time, as its market engine moved. */
const exchangeBooks = new Map<string, DepthEvent>();

beforeEach(async () => {
  s = await startSim({ tickMs: 1000 });
  s.sim.engine.onMarketEvent((event) => {
    if (event.type === 'depth') exchangeBooks.set(`${event.symbol}@${event.ts}`, event);
  });
});
afterEach(async () => {
  recorded?.stop();
  recorded = undefined;
  exchangeBooks.clear();
  await s.stop();
});

function levelsText(levels: ReadonlyArray<{ readonly price: { toString(): string }; readonly qty: { toString(): string } }>): string[] {
  return levels.map((l) => `${l.price.toString()}@${l.qty.toString()}`);
}

function wireText(levels: ReadonlyArray<readonly [string, string]>): string[] {
  return levels.map(([p, q]) => `${p}@${q}`);
}

/** Advances the market one second at a time, letting each step's frames and (re)connects go over loopback. */
async function run(r: RecordedMarketSession, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) {
    const frames = r.session.stats().frames;
    s.clock.advanceBy(1000);
    await waitFor(() => r.session.state !== 'connecting', 'the connect attempt to finish');
    // Frames of the step: a depth delta per symbol and second, unless a fault ate them all.
    await settle(() => r.session.stats().frames > frames, 500);
  }
}

function expectServedBooksAreTheExchanges(r: RecordedMarketSession): number {
  const books = r.of('market.book');
  for (const book of books) {
    const exchange = exchangeBooks.get(`${book.symbol}@${book.time}`);
    expect(exchange).toBeDefined();
    if (exchange === undefined) continue;
    expect({ symbol: book.symbol, time: book.time, bids: levelsText(book.bids), asks: levelsText(book.asks) }).toEqual({
      symbol: book.symbol,
      time: book.time,
      bids: wireText(exchange.bids),
      asks: wireText(exchange.asks),
    });
  }
  return books.length;
}

async function expectEqualsRest(r: RecordedMarketSession, symbol: string): Promise<void> {
  const rest = s.publicClient();
  const channel = r.channels.find((c) => c.symbol === symbol && c.channel === 'depth');
  const book = channel?.book;
  if (book === undefined) throw new Error(`no depth channel for ${symbol}`);
  // Step until the client's book has caught up with the exchange's latest (a lost last delta shows at the next one).
  for (let step = 0; step < 30; step++) {
    const answer = value(await rest.market.depth({ symbol, limit: 0 }));
    if (await settle(() => book.isSynced && book.time === answer.time, 1000)) {
      const local = book.levels(0);
      expect(local).toBeDefined();
      expect({ bids: levelsText(local?.bids ?? []), asks: levelsText(local?.asks ?? []) }).toEqual({ bids: levelsText(answer.bids), asks: levelsText(answer.asks) });
      return;
    }
    await run(r, 1);
  }
  throw new Error(`the ${symbol} book never caught up with REST`);
}

describe('market socket: local book against the exchange', () => {
  it('without faults, the book from the socket equals /quote/v1/depth', async () => {
    recorded = new RecordedMarketSession(s, [
      { symbol: BTC, channel: 'depth', everyMs: 1000, depthLimit: 0 },
      { symbol: ETH, channel: 'depth', everyMs: 1000, depthLimit: 0 },
    ]);
    await recorded.session.start();
    await run(recorded, 10);
    await expectEqualsRest(recorded, BTC);
    await expectEqualsRest(recorded, ETH);
    expect(expectServedBooksAreTheExchanges(recorded)).toBeGreaterThan(5);
    expect(recorded.session.stats()).toMatchObject({ gaps: 0, resyncs: 0, reconnects: 0 });
  });

  it('under lost and reordered frames, sequence gaps and dropped sockets it never serves a wrong book, and resyncs to the exchange', async () => {
    const faulty = s.sim.http.faults.update({ marketFrameLossRate: 0.1, marketFrameReorderRate: 0.1, marketSeqGapRate: 0.05, wsDropEveryMs: { min: 8000, max: 15000 } });
    expect(faulty.ok).toBe(true);
    recorded = new RecordedMarketSession(s, [
      { symbol: BTC, channel: 'depth', everyMs: 1000, depthLimit: 0 },
      { symbol: ETH, channel: 'depth', everyMs: 1000, depthLimit: 0 },
    ], { backoff: { initialMs: 200, maxMs: 1000 } });
    await recorded.session.start();
    await run(recorded, 60);
    const stats = recorded.session.stats();
    expect(stats.gaps).toBeGreaterThan(0);
    expect(stats.resyncs).toBeGreaterThan(0);
    expect(stats.reconnects).toBeGreaterThan(0);
    expect(expectServedBooksAreTheExchanges(recorded)).toBeGreaterThan(10);

    expect(s.sim.http.faults.update({ marketFrameLossRate: 0, marketFrameReorderRate: 0, marketSeqGapRate: 0, wsDropEveryMs: null }).ok).toBe(true);
    await expectEqualsRest(recorded, BTC);
    await expectEqualsRest(recorded, ETH);
    expectServedBooksAreTheExchanges(recorded);
  });
});
