import { dec } from '../../src/core/decimal.js';
import { silentLogger } from '../../src/core/logger.js';
import { systemStopwatch, systemTime } from '../../src/core/system-time.js';
import type { PlaceOrderCommand } from '../../src/model/commands.js';
import type { MarketEvent } from '../../src/model/market-events.js';
import { createGotHttp } from '../../src/venue/got-http.js';
import { createSocketHttp } from '../../src/venue/socket-http.js';
import type { HttpPort, HttpReply, HttpRequest } from '../../src/venue/http-port.js';
import { VenueExchangePort } from '../../src/venue/port/venue-exchange-port.js';
import type { ArrivedMarketEvent } from '../../src/venue/sources/market-poller.js';
import { MarketPoller } from '../../src/venue/sources/market-poller.js';
import { clientFor, v2 } from '../support/client.js';
import { FixtureVenue } from '../support/fixture-venue.js';

const BTC = 'BTC-SWAP-USDT';
const ORDER_ROW = {
  time: '1668418485058', updateTime: '1668418485058', orderId: '1289182123551455488', clientOrderId: 'c1', symbol: BTC,
  price: '19000', leverage: '2', origQty: '10', executedQty: '0', avgPrice: '0', marginLocked: '9.5', type: 'LIMIT', side: 'BUY',
  positionSide: 'LONG', timeInForce: 'GTC', status: 'NEW',
};
const PLACE: PlaceOrderCommand = {
  type: 'place-order', clientOrderId: 'c1', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price: dec(19000), quantity: dec(10), timeInForce: 'GTC',
};

/** The got adapter, recording for each request which hooks it was given and when (stopwatch) its reply was in hand. */
class HookSpy implements HttpPort {
  readonly seen: Array<{ readonly path: string; readonly onWritten: boolean; readonly onResponse: boolean; resolvedAt?: number }> = [];
  private readonly inner = createGotHttp();

  async send(request: HttpRequest): Promise<HttpReply> {
    const row: (typeof this.seen)[number] = { path: new URL(request.url).pathname, onWritten: request.onWritten !== undefined, onResponse: request.onResponse !== undefined };
    this.seen.push(row);
    const reply = await this.inner.send(request);
    row.resolvedAt = systemStopwatch.now();
    return reply;
  }
}

let venue: FixtureVenue;

beforeEach(async () => {
  venue = await FixtureVenue.start();
});
afterEach(() => venue.close());

describe('request traces over got: the write of a request and the arrival of its reply', () => {
  test('a traced order request reports its write once, then its reply once the exchange answers', async () => {
    venue.reply('POST /api/v2/futures/order', { body: v2(ORDER_ROW), delayMs: 40 });
    const client = clientFor(venue);
    const steps: Array<readonly [string, number]> = [];
    const trace = {
      written: () => steps.push(['written', systemStopwatch.now()]),
      answered: () => steps.push(['answered', systemStopwatch.now()]),
    };
    const placed = await client.ordersV2.traced(trace).placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'c1', quantity: dec(10), price: dec(19000) });
    expect(placed.ok).toBe(true);
    expect(steps.map(([step]) => step)).toEqual(['written', 'answered']);
    const [[, written], [, answered]] = steps as [readonly [string, number], readonly [string, number]];
    // The reply was held 40 ms by the exchange: the write happened before it, not at the reply.
    expect(answered - written).toBeGreaterThanOrEqual(30);
    expect(venue.last().signature).toBe('valid');
    client.stop();
  });

  test('over the socket transport, an order request the rate governor lets through at once is on the socket before the call returns', async () => {
    venue.always('POST /api/v2/futures/order', { body: v2(ORDER_ROW) });
    const http = createSocketHttp();
    const client = clientFor(venue, { http });
    const orders = client.ordersV2;
    const order = { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'c1', quantity: dec(10), price: dec(19000) } as const;
    // The first request opens the kept-alive connection (its write is reported once connected).
    expect((await orders.placeOrder(order)).ok).toBe(true);
    const steps: string[] = [];
    const placing = orders.traced({ written: () => steps.push('written') }).placeOrder(order);
    // No promise hop between the call and the socket (governor, signing, transport): written in this turn,
    // so an order journaled just before goes out before the strategy's next intent is even checked.
    steps.push('returned');
    expect((await placing).ok).toBe(true);
    expect(steps).toEqual(['written', 'returned']);
    expect(venue.requests.filter((r) => r.path === '/api/v2/futures/order')).toHaveLength(2);
    client.stop();
    http.close();
  });

  test('the port passes its trace with the order commands only; queries and untraced commands carry no hooks', async () => {
    venue.always('POST /api/v2/futures/order', { body: v2(ORDER_ROW) });
    venue.always('DELETE /api/v2/futures/order', { body: v2({ ...ORDER_ROW, status: 'CANCELED' }) });
    venue.always('GET /api/v2/futures/order', { body: v2(ORDER_ROW) });
    const http = new HookSpy();
    const client = clientFor(venue, { http });
    const port = new VenueExchangePort({ client });
    let writes = 0;
    const trace = { written: () => writes++ };
    expect((await port.placeOrder(PLACE, trace)).ok).toBe(true);
    expect((await port.cancelOrder({ type: 'cancel-order', symbol: BTC, clientOrderId: 'c1' }, trace)).ok).toBe(true);
    expect((await port.queryOrder(BTC, 'c1')).ok).toBe(true);
    expect((await port.placeOrder(PLACE)).ok).toBe(true);
    expect(writes).toBe(2);
    expect(http.seen.map((s) => [s.path, s.onWritten])).toEqual([
      ['/api/v2/futures/order', true],
      ['/api/v2/futures/order', true],
      ['/api/v2/futures/order', false],
      ['/api/v2/futures/order', false],
    ]);
    client.stop();
  });

  test('the market poller stamps each event with its reply\'s arrival (before the reply is parsed and emitted)', async () => {
    venue.always('GET /quote/v1/contract/ticker/bookTicker', { body: [{ t: 1757452337074, s: BTC, b: '111631.8', bq: '120', a: '111631.9', aq: '75' }], delayMs: 20 });
    const http = new HookSpy();
    const client = clientFor(venue, { http });
    const poller = new MarketPoller({ market: client.market, time: systemTime, logger: silentLogger, channels: [{ symbol: BTC, channel: 'bookTicker', everyMs: 60_000 }] });
    const plain: MarketEvent[] = [];
    poller.events$.subscribe((event) => plain.push(event));
    const before = systemStopwatch.now();
    const arrived = await new Promise<ArrivedMarketEvent>((resolve) => {
      poller.arrivals$.subscribe(resolve);
      poller.start();
    });
    poller.stop();
    expect(arrived.event).toMatchObject({ type: 'market.bookTicker', symbol: BTC });
    expect(plain).toEqual([arrived.event]);
    const [request] = http.seen;
    expect(request).toMatchObject({ path: '/quote/v1/contract/ticker/bookTicker', onResponse: true, onWritten: false });
    expect(arrived.arrivedAt - before).toBeGreaterThanOrEqual(15);
    expect(arrived.arrivedAt).toBeLessThanOrEqual(request?.resolvedAt ?? 0);
    client.stop();
  });

  test('a traced request\'s answer is reported on the transport\'s exchanges after the reactions to its payload, an untraced one before its caller resumes', async () => {
    venue.always('GET /quote/v1/contract/ticker/bookTicker', { body: [{ t: 1757452337074, s: BTC, b: '111631.8', bq: '120', a: '111631.9', aq: '75' }] });
    const client = clientFor(venue);
    const reported: string[] = [];
    client.rest.exchanges.listen((exchange) => reported.push(`${exchange.endpoint} ${exchange.status}`));
    const route = 'GET /quote/v1/contract/ticker/bookTicker';
    expect((await client.market.contractBookTicker(BTC)).ok).toBe(true);
    expect(reported).toEqual([`${route} 200`]);
    // Traced (a poll on its way to the kernel): the caller's continuation, and the promise reactions after it, run first.
    const polled = await client.market.traced({ answered: () => undefined }).contractBookTicker(BTC);
    await Promise.resolve();
    expect(polled.ok).toBe(true);
    expect(reported).toEqual([`${route} 200`]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(reported).toEqual([`${route} 200`, `${route} 200`]);
    client.stop();
  });
});
