import { dec } from '../../../src/core/decimal.js';
import type { FaultSettingsInput } from '../../../src/sim/config/fault-settings.js';
import { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from './sim-harness.js';
import { waitFor } from '../../support/wait-for.js';
import { BTC, ETH, failure, MINUTE, startSim, value } from './sim-harness.js';

/** Authentication, rate limits and injected faults as the project's client meets them on a running simulator. */
let s: RunningSim;

beforeAll(async () => {
  s = await startSim();
});
afterAll(() => s.stop());
afterEach(async () => {
  await setFaults({ clockSkewMs: 0, rateLimitShare: 1, http5xxRate: 0, lostReplyRate: 0, lostReplyRoutes: 'all' });
  // A fresh minute: the server's weight, orders and rejection windows start over.
  s.clock.advanceBy(MINUTE);
});

async function adminFaults(method: 'GET' | 'PUT', body?: FaultSettingsInput, token = s.config.admin.token): Promise<{ status: number; body: unknown }> {
  const reply = await fetch(`${s.sim.address.baseUrl}/admin/faults`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: reply.status, body: (await reply.json()) as unknown };
}

async function setFaults(faults: FaultSettingsInput): Promise<void> {
  const reply = await adminFaults('PUT', faults);
  if (reply.status !== 200) throw new Error(`PUT /admin/faults answered ${reply.status}: ${JSON.stringify(reply.body)}`);
}

/** The first whole minute after now, plus a second: server windows are fresh there. */
function toFreshMinute(): void {
  const now = s.clock.now();
  s.clock.advanceTo(now - (now % MINUTE) + MINUTE + 1000);
}

describe('keys and signatures', () => {
  it('a read-only key reads, manages its listen key, and is refused on writes with -1020', async () => {
    const readOnly = s.client('read-only');
    expect(value(await readOnly.account.futuresBalance()).length).toBeGreaterThan(0);
    expect(Array.isArray(value(await readOnly.ordersV2.openOrders()))).toBe(true);
    expect(value(await readOnly.userStream.createListenKey())).not.toBe('');
    expect(failure(await readOnly.account.leverage(BTC, 5))).toMatchObject({ kind: 'rejected', code: -1020, httpStatus: 400 });
    const order = await readOnly.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: dec(1000), quantity: dec(1), newClientOrderId: 'ro-1' });
    expect(failure(order)).toMatchObject({ kind: 'rejected', code: -1020 });
  });

  it('a COPY_TRADING key passes authentication on trading routes and acts on its own empty futures account', async () => {
    const copy = s.client('copy-trading');
    const balances = value(await copy.account.futuresBalance());
    expect(balances.find((b) => b.coin === 'USDT')?.balance.eq(0)).toBe(true);
    expect(value(await copy.account.positions())).toEqual([]);
    const order = await copy.ordersV2.placeOrder({ symbol: ETH, side: 'BUY', positionSide: 'LONG', type: 'MARKET', quantity: dec(1), newClientOrderId: 'copy-1' });
    expect(failure(order)).toMatchObject({ kind: 'rejected', code: -1131 });
  });

  it('a wrong secret is -1022 and an unknown key -2015', async () => {
    const trader = s.config.keys.find((k) => k.name === 'trader');
    const base = { baseUrl: s.sim.address.baseUrl, time: s.clock, timeoutMs: 3000 };
    const wrongSecret = new ExchangeClient({ ...base, credentials: { apiKey: trader?.apiKey ?? '', apiSecret: 'notTheSecret0000000000000000000000' } });
    expect(failure(await wrongSecret.account.futuresBalance())).toMatchObject({ kind: 'rejected', code: -1022, httpStatus: 400 });
    const unknownKey = new ExchangeClient({ ...base, credentials: { apiKey: 'unknownKey000000000000000000000000', apiSecret: 'whatever0000000000000000' } });
    expect(failure(await unknownKey.account.futuresBalance())).toMatchObject({ kind: 'rejected', code: -2015 });
  });
});

describe('admin faults and the client’s recovery', () => {
  it('the admin endpoint needs its token and answers the settings in force', async () => {
    expect((await adminFaults('GET', undefined, 'wrongAdminToken000000000')).status).toBe(401);
    await setFaults({ latencyMs: 0, http5xxRate: 0 });
    const current = await adminFaults('GET');
    expect(current.body).toMatchObject({ clockSkewMs: 0, rateLimitShare: 1, listenKeyTtlMs: 3_600_000 });
  });

  it.each([30_000, -30_000])('a server clock skewed by %d ms: -1021, one re-sync, the retry passes', async (skew) => {
    await setFaults({ clockSkewMs: skew });
    const client = s.client('trader');
    expect(client.timeSync.isSynced).toBe(false);
    expect(value(await client.account.futuresBalance()).length).toBeGreaterThan(0);
    // Virtual time stands still during the probes, so the measured offset is the skew exactly.
    expect(client.timeSync.offset).toBe(skew);
    expect(value(await s.publicClient().market.serverTime())).toBe(s.clock.now() + skew);
    const metrics = await (await fetch(`${s.sim.address.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/stratd_sim_requests_total\{route="GET \/api\/v1\/futures\/balance",status="400"\} [1-9]/);
  });

  it('a squeezed weight budget: the client learns the limit from the headers and queues; another client gets 429', async () => {
    toFreshMinute();
    await setFaults({ rateLimitShare: 0.002 }); // 6 weight a minute per key
    const first = s.client('trader');
    value(await first.account.futuresBalance()); // weight 5
    expect(first.governor.snapshot().weightLimit).toBe(4); // X-Api-Limit 6, times the client's 0.8 share

    const queued = first.account.futuresBalance();
    expect(first.governor.snapshot().queued).toBe(1);

    // Another process on the same key has not seen the headers: the server refuses it.
    const other = s.client('trader');
    const limited = failure(await other.account.futuresBalance());
    expect(limited).toMatchObject({ kind: 'rate-limited', httpStatus: 429 });
    expect(limited.code).toBe(-1003);
    const nextMinute = s.clock.now() - (s.clock.now() % MINUTE) + MINUTE;
    expect(limited.retryAt).toBe(nextMinute);
    expect(other.governor.snapshot().pausedUntil).toBe(nextMinute);

    await setFaults({ rateLimitShare: 1 });
    s.clock.advanceBy(MINUTE);
    expect(value(await queued).length).toBeGreaterThan(0);
  });

  it('a squeezed ORDERS budget: the fourth order in 2 s is rate-limited with -1015', async () => {
    toFreshMinute();
    await setFaults({ rateLimitShare: 0.05 }); // 3 orders per 2 s, 150 weight a minute
    const trader = s.client('trader');
    const place = (n: number): ReturnType<typeof trader.ordersV2.placeOrder> =>
      trader.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: dec(50_000), quantity: dec(1), newClientOrderId: `squeeze-${n}` });
    for (const n of [1, 2, 3]) value(await place(n));
    const fourth = failure(await place(4));
    expect(fourth).toMatchObject({ kind: 'rate-limited', code: -1015, httpStatus: 429 });
    const { pausedUntil } = trader.governor.snapshot();
    expect(pausedUntil).toBeGreaterThan(s.clock.now());
    // The client holds everything back until the reset, in virtual time.
    const cancel = trader.ordersV2.cancelAll([BTC]);
    expect(trader.governor.snapshot().queued).toBe(1);
    s.clock.advanceTo(pausedUntil);
    value(await cancel);
    expect(value(await trader.ordersV2.openOrders({ symbol: BTC }))).toEqual([]);
  });

  it('5xx: unknown-status, and the order was not executed', async () => {
    await setFaults({ http5xxRate: 1 });
    const trader = s.client('trader');
    const placed = failure(await trader.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: dec(50_000), quantity: dec(1), newClientOrderId: 'fault-5xx' }));
    expect(placed.kind).toBe('unknown-status');
    expect([500, 502, 503]).toContain(placed.httpStatus);
    expect(placed.statusUnknown).toBe(true);
    await setFaults({ http5xxRate: 0 });
    expect(failure(await trader.ordersV2.getOrder({ origClientOrderId: 'fault-5xx' }))).toMatchObject({ code: -2013 });
  });

  it('a lost reply: unknown-status after the client’s timeout, and the order exists', async () => {
    await setFaults({ lostReplyRate: 1 });
    const impatient = s.client('trader', { timeoutMs: 300 });
    const placed = failure(await impatient.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: dec(50_000), quantity: dec(1), newClientOrderId: 'fault-lost' }));
    expect(placed.kind).toBe('unknown-status');
    expect(placed.message).toContain('timed out');
    await setFaults({ lostReplyRate: 0 });
    const trader = s.client('trader');
    const order = value(await trader.ordersV2.getOrder({ origClientOrderId: 'fault-lost' }));
    expect(order.status).toBe('NEW');
    value(await trader.ordersV2.cancelOrder({ orderId: order.orderId }));
  });
});

/**
 * `lostReplyRoutes` narrows the lost-reply fault: 'orders' holds only the replies of order routes (TRADE:
 * place, cancel, amend, algo), so reads keep answering; 'all' (the default) holds every reply. A held
 * request is seen on the server (`heldCount`); the client gives up after its short timeout (real time).
 */
describe('lost replies by route', () => {
  const PLACE = 'POST /api/v2/futures/order';
  const OPEN_ORDERS = 'GET /api/v2/futures/open-orders';
  const EXCHANGE_INFO = 'GET /api/v1/exchangeInfo';

  async function metricsText(): Promise<string> {
    return (await fetch(`${s.sim.address.baseUrl}/metrics`)).text();
  }

  /** The sum of one counter's samples whose labels contain `labels` (e.g. `kind="lost_reply"`). */
  async function counter(name: string, labels: string): Promise<number> {
    let total = 0;
    for (const line of (await metricsText()).split('\n')) {
      if (line.startsWith(`${name}{`) && line.includes(labels)) total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return total;
  }

  const lostReplies = (): Promise<number> => counter('stratd_sim_faults_injected_total', 'kind="lost_reply"');
  const requests = (route: string, status: string): Promise<number> => counter('stratd_sim_requests_total', `route="${route}",status="${status}"`);

  it("'orders': reads are answered; a v2 order placement executes but its reply never comes", async () => {
    const lostBefore = await lostReplies();
    const answeredBefore = await requests(OPEN_ORDERS, '200');
    const heldBefore = await requests(PLACE, 'none');
    await setFaults({ lostReplyRate: 1, lostReplyRoutes: 'orders' });
    const trader = s.client('trader', { timeoutMs: 300 });

    // Reads, signed and public, are answered at once.
    expect(value(await trader.ordersV2.openOrders({ symbol: BTC })).filter((o) => o.clientOrderId === 'lost-orders-1')).toEqual([]);
    expect(value(await trader.market.exchangeInfo()).contracts.length).toBeGreaterThan(0);
    expect((await requests(OPEN_ORDERS, '200')) - answeredBefore).toBe(1);
    expect(s.sim.http.heldCount).toBe(0);

    const placing = trader.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: dec(50_000), quantity: dec(1), newClientOrderId: 'lost-orders-1' });
    await waitFor(() => s.sim.http.heldCount === 1, 'the simulator to execute the order and hold its reply');
    const placed = failure(await placing);
    expect(placed.kind).toBe('unknown-status');
    expect(placed.message).toContain('timed out');
    expect((await lostReplies()) - lostBefore).toBe(1);
    expect((await requests(PLACE, 'none')) - heldBefore).toBe(1);

    // The order exists: once the fault is off, the exchange shows it, open.
    await setFaults({ lostReplyRate: 0 });
    const reader = s.client('trader');
    const order = value(await reader.ordersV2.getOrder({ origClientOrderId: 'lost-orders-1' }));
    expect(order.status).toBe('NEW');
    expect(value(await reader.ordersV2.openOrders({ symbol: BTC })).filter((o) => o.clientOrderId === 'lost-orders-1').map((o) => o.orderId)).toEqual([order.orderId]);
    value(await reader.ordersV2.cancelOrder({ orderId: order.orderId }));
  });

  it("'orders': a v2 cancel (DELETE) is an order route too: executed, never answered", async () => {
    const trader = s.client('trader');
    const order = value(await trader.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: dec(50_000), quantity: dec(1), newClientOrderId: 'lost-orders-2' }));
    await setFaults({ lostReplyRate: 1, lostReplyRoutes: 'orders' });
    const impatient = s.client('trader', { timeoutMs: 300 });
    expect(failure(await impatient.ordersV2.cancelOrder({ orderId: order.orderId }))).toMatchObject({ kind: 'unknown-status' });
    await setFaults({ lostReplyRate: 0 });
    expect(value(await trader.ordersV2.getOrder({ orderId: order.orderId })).status).toBe('CANCELED');
  });

  it("'all': a read loses its reply too (signed and public)", async () => {
    const lostBefore = await lostReplies();
    const heldBefore = await requests(OPEN_ORDERS, 'none');
    const infoHeldBefore = await requests(EXCHANGE_INFO, 'none');
    await setFaults({ lostReplyRate: 1, lostReplyRoutes: 'all' });
    const impatient = s.client('trader', { timeoutMs: 300 });

    const reading = impatient.ordersV2.openOrders({ symbol: BTC });
    await waitFor(() => s.sim.http.heldCount >= 1, 'the simulator to hold the read');
    const read = failure(await reading);
    expect(read.kind).toBe('unknown-status');
    expect(read.message).toContain('timed out');
    // The transport asks a read again at once (twice more); every attempt lost its reply.
    expect((await requests(OPEN_ORDERS, 'none')) - heldBefore).toBe(3);

    expect(failure(await impatient.market.exchangeInfo()).kind).toBe('unknown-status');
    expect((await requests(EXCHANGE_INFO, 'none')) - infoHeldBefore).toBe(3);
    expect((await lostReplies()) - lostBefore).toBe(6);
  });
});
