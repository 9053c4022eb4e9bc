import { dec } from '../../src/core/decimal.js';
import { systemTime } from '../../src/core/system-time.js';
import { ExchangeClient } from '../../src/venue/exchange-client.js';
import { clientFor, v2 } from '../support/client.js';
import { FixtureVenue } from '../support/fixture-venue.js';

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
    const badEnum = await client.ordersV2.openOrders();
    expect(!badEnum.ok && badEnum.error.field).toBe('[0].status');
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
