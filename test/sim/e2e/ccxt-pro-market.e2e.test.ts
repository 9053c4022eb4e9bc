import { pro } from 'ccxt';
import { systemTime } from '../../../src/core/system-time.js';
import type { DepthEvent } from '../../../src/sim/market-stream/events.js';
import { SimulatedExchange } from '../../../src/sim/simulated-exchange.js';
import { BTC, simConfig } from './sim-harness.js';

/**
 * "A third-party streaming client of this exchange works unmodified against the simulator's public
 * topics": ccxt-pro's `toobit` class (ccxt is a devDependency), its REST and WebSocket URLs pointed at a
 * simulator on 127.0.0.1, watches the order book (both the `depth` and the `diffDepth` channel) and the
 * trades of a contract; what it builds is checked against the simulator's own market. ccxt stamps
 * requests with the wall clock, so this simulator runs on system time.
 */
const CCXT_BTC = 'BTC/USDT:USDT';

let sim: SimulatedExchange;
let ex: InstanceType<typeof pro.toobit>;
/** Every book the simulator has had since ccxt could first see one, by its time. */
const books = new Map<number, Pick<DepthEvent, 'bids' | 'asks'>>();
const tradeIds = new Set<string>();

beforeAll(async () => {
  sim = await SimulatedExchange.start({ config: simConfig(), time: systemTime });
  sim.engine.onMarketEvent((event) => {
    if (event.symbol !== BTC) return;
    if (event.type === 'depth') books.set(event.ts, event);
    if (event.type === 'trade') tradeIds.add(event.id);
  });
  // The book in force now (from the warm-up): a subscription made before the next book change gets it as its snapshot.
  const current = sim.marketData.depth(BTC, 0);
  if (current !== undefined) books.set(current.t, { bids: current.b, asks: current.a });
  const { baseUrl, streamUrl } = sim.address;
  expect(new URL(streamUrl).hostname).toBe('127.0.0.1');
  ex = new pro.toobit({ enableRateLimit: false, options: { defaultType: 'swap' } });
  ex.urls['api'] = { common: baseUrl, private: baseUrl, ws: { common: streamUrl } };
  // ccxt's own documented step for a plain ws:// URL (the live exchange is wss://): loopback has no TLS.
  await ex.loadHttpProxyAgent();
  await ex.loadMarkets();
}, 120_000);

afterAll(async () => {
  await ex.close();
  await sim.stop();
});

function expectTheSimulatorsBook(book: { timestamp?: number | undefined; bids: ReadonlyArray<readonly unknown[]>; asks: ReadonlyArray<readonly unknown[]> }): void {
  const time = book.timestamp;
  if (time === undefined) throw new Error('ccxt built a book without a timestamp');
  const exchange = books.get(time);
  expect(exchange).toBeDefined();
  const asNumbers = (levels: ReadonlyArray<readonly [string, string]>): number[][] => levels.map(([p, q]) => [Number(p), Number(q)]);
  expect(book.bids.map((l) => [Number(l[0]), Number(l[1])])).toEqual(asNumbers(exchange?.bids ?? []));
  expect(book.asks.map((l) => [Number(l[0]), Number(l[1])])).toEqual(asNumbers(exchange?.asks ?? []));
}

describe('ccxt-pro toobit, unmodified, on the simulator\'s public market socket', () => {
  it('watchOrderBook on the depth channel: whole books equal to the simulator\'s', async () => {
    for (let i = 0; i < 3; i++) expectTheSimulatorsBook(await ex.watchOrderBook(CCXT_BTC));
  }, 120_000);

  it('watchOrderBook on the diffDepth channel: snapshot plus deltas stay equal to the simulator\'s book', async () => {
    for (let i = 0; i < 4; i++) expectTheSimulatorsBook(await ex.watchOrderBook(CCXT_BTC, undefined, { channel: 'diffDepth' }));
  }, 120_000);

  it('watchTrades: the recent trades, then new prints, each one the simulator printed', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const trades = await ex.watchTrades(CCXT_BTC);
      for (const trade of trades) {
        expect(trade.symbol).toBe(CCXT_BTC);
        expect(trade.id).toBeDefined();
        seen.add(String(trade.id));
      }
    }
    expect(seen.size).toBeGreaterThan(0);
    // The replayed ones were printed during the simulator's warm-up, before this suite listened: its trade buffer has them.
    for (const trade of sim.marketData.recentTrades(BTC, 1000) ?? []) tradeIds.add(trade.id);
    for (const id of seen) expect(tradeIds.has(id)).toBe(true);
  }, 120_000);
});
