import { dec } from '../../src/core/decimal.js';
import { systemTime } from '../../src/core/system-time.js';
import { ExchangeClient } from '../../src/venue/exchange-client.js';
import type { RestExchange } from '../../src/venue/rest-transport.js';
import type { RunningSim } from '../sim/e2e/sim-harness.js';
import { BTC, failure, MINUTE, startSim, value } from '../sim/e2e/sim-harness.js';
import { outcomeOf } from '../support/skipped-rows.js';
import { clientFor, v2 } from '../support/client.js';
import { FixtureVenue } from '../support/fixture-venue.js';
import { requestCount, setFaults } from './port/admin-faults.js';

const ORDER_ROW = {
  time: '1668418485058', updateTime: '1668418485058', orderId: '1289182123551455488', clientOrderId: 'c1', symbol: 'BTC-SWAP-USDT',
  price: '19000', leverage: '2', origQty: '10', executedQty: '0', avgPrice: '0', marginLocked: '9.5', type: 'LIMIT', side: 'BUY',
  positionSide: 'LONG', timeInForce: 'GTC', status: 'NEW',
};
const ORDER = { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'c1', quantity: dec(10), price: dec(19000) } as const;
const ROUTE = 'POST /api/v2/futures/order';

let venue: FixtureVenue;
let client: ExchangeClient;

beforeEach(async () => {
  venue = await FixtureVenue.start();
  client = clientFor(venue, { timeoutMs: 300 });
});
afterEach(() => venue.close());

describe('REST transport outcomes', () => {
  it('an exchange error becomes a rejected VenueError with code, message, HTTP status and traceId', async () => {
    venue.reply(ROUTE, { status: 400, body: { code: -1131, msg: 'Balance insufficient' }, headers: { traceId: 'abc-123' } });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ kind: 'rejected', code: -1131, httpStatus: 400, traceId: 'abc-123', retryable: false, endpoint: 'POST /api/v2/futures/order' });
    expect(result.error.message).toContain('Balance insufficient');
  });

  it('accepts string success codes ("200") in v1 replies and negative string codes as errors', async () => {
    venue.reply('GET /api/v1/time', { body: { serverTime: 1790112378318 } });
    expect((await client.market.serverTime()).ok).toBe(true);
    venue.reply(ROUTE, { status: 400, body: { code: '-1022', msg: 'Signature for this request is not valid.' } });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(!result.ok && result.error.code).toBe(-1022);
  });

  it('a 5xx leaves the order status unknown and retryable', async () => {
    venue.reply(ROUTE, { status: 503, body: 'upstream failed' });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(!result.ok && result.error).toMatchObject({ kind: 'unknown-status', httpStatus: 503, retryable: true, statusUnknown: true });
  });

  it('-1006/-1007 in the body also mean unknown status', async () => {
    venue.reply(ROUTE, { status: 400, body: { code: -1007, msg: 'Timeout waiting for response from backend server.' } });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(!result.ok && result.error.kind).toBe('unknown-status');
  });

  it('a timeout is unknown status, not a crash', async () => {
    venue.reply(ROUTE, { body: v2(ORDER_ROW), delayMs: 1500 });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(!result.ok && result.error.kind).toBe('unknown-status');
    expect(!result.ok && result.error.message).toContain('timed out');
  });

  it('a connection refused is unknown status', async () => {
    const url = venue.url;
    await venue.close();
    const offline = clientFor({ url, secret: 'x' } as FixtureVenue);
    const result = await offline.ordersV2.placeOrder(ORDER);
    expect(!result.ok && result.error.kind).toBe('unknown-status');
    venue = await FixtureVenue.start();
  });

  it('a 429 is retryable after the reset timestamp and pauses the governor', async () => {
    const reset = Date.now() + 60_000;
    venue.reply(ROUTE, { status: 429, body: { code: -1015, msg: 'Too many new orders' }, headers: { 'X-Api-Limit-Reset-Timestamp': String(reset) } });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(!result.ok && result.error).toMatchObject({ kind: 'rate-limited', code: -1015, retryable: true });
    expect(!result.ok && Math.abs((result.error.retryAt ?? 0) - reset)).toBeLessThan(5000);
    expect(client.governor.snapshot().pausedUntil).toBeGreaterThan(Date.now());
  });

  it('a 429 without a reset timestamp but with Retry-After pauses until then', async () => {
    venue.reply('GET /api/v1/futures/balance', { status: 429, body: { code: -1003, msg: 'Too many requests' }, headers: { 'Retry-After': '30' } });
    const before = Date.now();
    const result = await client.account.futuresBalance();
    expect(!result.ok && result.error).toMatchObject({ kind: 'rate-limited', code: -1003, retryable: true });
    const retryAt = (!result.ok && result.error.retryAt) || 0;
    expect(retryAt).toBeGreaterThanOrEqual(before + 25_000);
    expect(retryAt).toBeLessThanOrEqual(Date.now() + 35_000);
    expect(client.governor.snapshot().pausedUntil).toBe(retryAt);
  });

  it('a 418 halts sending: later calls are refused without reaching the server', async () => {
    venue.reply(ROUTE, { status: 418, body: { code: -1003, msg: 'IP banned' } });
    const first = await client.ordersV2.placeOrder(ORDER);
    expect(!first.ok && first.error.kind).toBe('banned');
    const count = venue.requests.length;
    const second = await client.ordersV2.openOrders();
    expect(!second.ok && second.error.kind).toBe('banned');
    expect(venue.requests).toHaveLength(count);
  });

  it('on -1021 re-syncs the clock once and retries the request once, with a fresh timestamp', async () => {
    const serverTime = Date.now() + 7000;
    venue.reply(ROUTE, { status: 400, body: { code: -1021, msg: "Timestamp for this request was 1000ms ahead of the server's time." } });
    venue.always('GET /api/v1/time', { body: { serverTime } });
    venue.reply(ROUTE, { body: v2(ORDER_ROW) });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(result.ok).toBe(true);
    const orderCalls = venue.requests.filter((r) => r.path === '/api/v2/futures/order');
    expect(orderCalls).toHaveLength(2);
    expect(venue.requests.filter((r) => r.path === '/api/v1/time').length).toBeGreaterThanOrEqual(1);
    const ts = orderCalls.map((r) => Number(new URLSearchParams(r.rawQuery).get('timestamp')));
    expect((ts[1] ?? 0) - (ts[0] ?? 0)).toBeGreaterThan(5000);
    expect(client.timeSync.offset).toBeGreaterThan(5000);
  });

  it('retries -1021 only once', async () => {
    venue.always(ROUTE, { status: 400, body: { code: -1021, msg: 'outside of the recvWindow' } });
    venue.always('GET /api/v1/time', { body: { serverTime: Date.now() } });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(!result.ok && result.error.code).toBe(-1021);
    expect(venue.requests.filter((r) => r.path === '/api/v2/futures/order')).toHaveLength(2);
  });

  it('a non-JSON reply is a typed error', async () => {
    venue.reply(ROUTE, { body: '<html>oops' });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(!result.ok && result.error).toMatchObject({ kind: 'malformed-response', field: '(root)' });
  });

  it('an unknown path (HTML 404) is an http error', async () => {
    const result = await client.ordersV2.getOrder({ orderId: '1' });
    expect(!result.ok && result.error).toMatchObject({ kind: 'http', httpStatus: 404 });
  });

  it('a v2 reply without its wrapper is malformed', async () => {
    venue.reply(ROUTE, { body: ORDER_ROW });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(!result.ok && result.error).toMatchObject({ kind: 'malformed-response', field: 'code' });
  });

  it('a wrongly typed field is named in the error, never a NaN', async () => {
    venue.reply(ROUTE, { body: v2({ ...ORDER_ROW, price: 'abc' }) });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(!result.ok && result.error).toMatchObject({ kind: 'malformed-response', field: 'price' });
    venue.reply(ROUTE, { body: '{"code":200,"data":{"time":"1","orderId":' });
    const truncated = await client.ordersV2.placeOrder(ORDER);
    expect(!truncated.ok && truncated.error.kind).toBe('malformed-response');
    venue.reply('GET /api/v2/futures/open-orders', { body: v2([{ ...ORDER_ROW, status: 'EXPLODED' }]) });
    // A list row with a value stratd does not know is skipped and counted, not a failed reply.
    expect(await outcomeOf(client, () => client.ordersV2.openOrders())).toEqual({ kind: 'skipped', field: '[0].status' });
  });

  it('keeps 64-bit ids sent as bare JSON numbers exact', async () => {
    venue.reply(ROUTE, { body: `{"code":200,"msg":"success","data":${JSON.stringify({ ...ORDER_ROW }).replace('"orderId":"1289182123551455488"', '"orderId":1289182123551455488')}}` });
    const result = await client.ordersV2.placeOrder(ORDER);
    expect(result.ok && result.value.orderId).toBe('1289182123551455488');
  });

  it('sends no signed request without credentials', async () => {
    const anonymous = new ExchangeClient({ baseUrl: venue.url, time: systemTime });
    const result = await anonymous.ordersV2.openOrders();
    expect(!result.ok && result.error).toMatchObject({ kind: 'invalid-request', rule: 'credentials' });
    expect(venue.requests).toHaveLength(0);
  });
});

/**
 * Reads are safe to repeat: a GET that meets a 5xx or a timeout is sent again at once, at most twice more;
 * writes never are. On the real simulator over loopback, faults set through its admin endpoint (or, to
 * change them between two attempts of one call, its FaultState in process); the wire is read from the
 * simulator's /metrics and the transport's `exchanges`.
 */
describe('REST transport read retries (simulator)', () => {
  const OPEN_ORDERS = 'GET /api/v2/futures/open-orders';
  const PLACE = 'POST /api/v2/futures/order';
  const CANCEL = 'DELETE /api/v2/futures/order';
  let s: RunningSim;

  beforeAll(async () => {
    s = await startSim();
  });
  afterAll(() => s.stop());
  afterEach(async () => {
    await setFaults(s, { http5xxRate: 0, timeoutRate: 0 });
    // A fresh minute: the server's weight and order windows start over.
    s.clock.advanceBy(MINUTE);
  });

  /** A trader client whose transport's exchanges (one per attempt on the wire) are recorded. */
  function recorded(timeoutMs = 3000): { client: ExchangeClient; seen: RestExchange[] } {
    const client = s.client('trader', { timeoutMs });
    const seen: RestExchange[] = [];
    client.rest.exchanges.listen((exchange) => seen.push(exchange));
    return { client, seen };
  }

  /** Turns a fault off in the simulator as soon as the transport has seen `attempts` failed attempts (before the next is sent). */
  function healAfter(seen: RestExchange[], client: ExchangeClient, attempts: number, heal: { readonly http5xxRate?: number; readonly timeoutRate?: number }): void {
    client.rest.exchanges.listen(() => {
      if (seen.length === attempts) expect(s.sim.http.faults.update(heal).ok).toBe(true);
    });
  }

  const statuses = (seen: readonly RestExchange[]): Array<RestExchange['status']> => seen.map((e) => e.status);
  const isServerError = (status: RestExchange['status']): boolean => typeof status === 'number' && status >= 500;

  it('a GET answered 5xx every time is sent 3 times in all, at once, and ends unknown-status', async () => {
    const { client, seen } = recorded();
    const before = await requestCount(s, OPEN_ORDERS);
    await setFaults(s, { http5xxRate: 1 });
    const started = s.clock.now();
    const result = failure(await client.ordersV2.openOrders({ symbol: BTC }));
    expect(result).toMatchObject({ kind: 'unknown-status', endpoint: OPEN_ORDERS });
    expect([500, 502, 503]).toContain(result.httpStatus);
    expect((await requestCount(s, OPEN_ORDERS)) - before).toBe(3);
    expect(seen.map((e) => e.endpoint)).toEqual([OPEN_ORDERS, OPEN_ORDERS, OPEN_ORDERS]);
    expect(statuses(seen).every(isServerError)).toBe(true);
    // No wait between attempts: virtual time never moved (a scheduled back-off would never have fired).
    expect(s.clock.now()).toBe(started);
    expect(client.rest.inFlight).toBe(0);
  });

  it('a public GET (exchangeInfo) is retried the same way', async () => {
    const { client, seen } = recorded();
    const route = 'GET /api/v1/exchangeInfo';
    const before = await requestCount(s, route);
    await setFaults(s, { http5xxRate: 1 });
    expect(failure(await client.market.exchangeInfo()).kind).toBe('unknown-status');
    expect((await requestCount(s, route)) - before).toBe(3);
    expect(seen).toHaveLength(3);
  });

  it('a GET that meets one 5xx succeeds on the second attempt', async () => {
    const { client, seen } = recorded();
    const before = await requestCount(s, OPEN_ORDERS);
    await setFaults(s, { http5xxRate: 1 });
    healAfter(seen, client, 1, { http5xxRate: 0 });
    expect(Array.isArray(value(await client.ordersV2.openOrders({ symbol: BTC })))).toBe(true);
    expect(statuses(seen).map(isServerError)).toEqual([true, false]);
    expect(seen[1]?.status).toBe(200);
    expect((await requestCount(s, OPEN_ORDERS)) - before).toBe(2);
  });

  it('a GET that meets two 5xx succeeds on the third and last attempt', async () => {
    const { client, seen } = recorded();
    const before = await requestCount(s, OPEN_ORDERS);
    await setFaults(s, { http5xxRate: 1 });
    healAfter(seen, client, 2, { http5xxRate: 0 });
    expect(Array.isArray(value(await client.ordersV2.openOrders({ symbol: BTC })))).toBe(true);
    expect(statuses(seen).map(isServerError)).toEqual([true, true, false]);
    expect((await requestCount(s, OPEN_ORDERS)) - before).toBe(3);
  });

  it('a GET that times out every time is sent 3 times in all and ends unknown-status (timed out)', async () => {
    const { client, seen } = recorded(200);
    const before = await requestCount(s, OPEN_ORDERS);
    await setFaults(s, { timeoutRate: 1 });
    const result = failure(await client.ordersV2.openOrders({ symbol: BTC }));
    expect(result.kind).toBe('unknown-status');
    expect(result.message).toContain('timed out');
    expect(statuses(seen)).toEqual(['timeout', 'timeout', 'timeout']);
    // Each attempt reached the simulator and was held there (counted with status "none").
    expect((await requestCount(s, OPEN_ORDERS)) - before).toBe(3);
  });

  it('a GET that times out once succeeds on the second attempt', async () => {
    const { client, seen } = recorded(200);
    await setFaults(s, { timeoutRate: 1 });
    healAfter(seen, client, 1, { timeoutRate: 0 });
    expect(Array.isArray(value(await client.ordersV2.openOrders({ symbol: BTC })))).toBe(true);
    expect(statuses(seen)).toEqual(['timeout', 200]);
  });

  it('a POST (v2 order) answered 5xx is never re-sent: one request on the wire, unknown-status', async () => {
    const { client, seen } = recorded();
    const before = await requestCount(s, PLACE);
    await setFaults(s, { http5xxRate: 1 });
    const placed = failure(
      await client.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: dec(50_000), quantity: dec(1), newClientOrderId: 'retry-post-5xx' }),
    );
    expect(placed).toMatchObject({ kind: 'unknown-status', endpoint: PLACE, statusUnknown: true });
    expect((await requestCount(s, PLACE)) - before).toBe(1);
    expect(seen).toHaveLength(1);
    expect(isServerError(seen[0]?.status ?? 'network-error')).toBe(true);
    await setFaults(s, { http5xxRate: 0 });
    expect(failure(await client.ordersV2.getOrder({ origClientOrderId: 'retry-post-5xx' }))).toMatchObject({ code: -2013 });
  });

  it('a POST that times out is never re-sent either', async () => {
    const { client, seen } = recorded(200);
    const before = await requestCount(s, PLACE);
    await setFaults(s, { timeoutRate: 1 });
    const placed = failure(
      await client.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: dec(50_000), quantity: dec(1), newClientOrderId: 'retry-post-timeout' }),
    );
    expect(placed.kind).toBe('unknown-status');
    expect(statuses(seen)).toEqual(['timeout']);
    expect((await requestCount(s, PLACE)) - before).toBe(1);
  });

  it('a DELETE (cancel) answered 5xx is never re-sent, and the order stays open', async () => {
    const { client, seen } = recorded();
    const order = value(
      await client.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: dec(50_000), quantity: dec(1), newClientOrderId: 'retry-delete-5xx' }),
    );
    const before = await requestCount(s, CANCEL);
    seen.length = 0;
    await setFaults(s, { http5xxRate: 1 });
    expect(failure(await client.ordersV2.cancelOrder({ orderId: order.orderId }))).toMatchObject({ kind: 'unknown-status', endpoint: CANCEL });
    expect((await requestCount(s, CANCEL)) - before).toBe(1);
    expect(seen.map((e) => e.endpoint)).toEqual([CANCEL]);
    await setFaults(s, { http5xxRate: 0 });
    expect(value(await client.ordersV2.getOrder({ orderId: order.orderId })).status).toBe('NEW');
    value(await client.ordersV2.cancelOrder({ orderId: order.orderId }));
  });
});
