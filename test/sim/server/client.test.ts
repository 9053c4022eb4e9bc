import type { TimeSource } from '../../../src/core/clock.js';
import { orderedParams } from '../../../src/core/ordered-params.js';
import { systemTime } from '../../../src/core/system-time.js';
import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { ExchangeClientOptions } from '../../../src/venue/exchange-client.js';
import type { FaultSettings } from '../../../src/sim/config/fault-settings.js';
import type { KeyringEntry } from '../../../src/sim/server/index.js';
import type { Echo, TestServer } from './harness.js';
import { FOLLOWER, READ_ONLY, startTestServer, TRADER } from './harness.js';

/** The project's real exchange client against the simulator's HTTP face, both on the wall clock. */
let t: TestServer;
async function start(faults: Partial<FaultSettings> = {}): Promise<void> {
  const time: TimeSource = systemTime;
  t = await startTestServer({ faults }, time);
}
afterEach(() => t.server.stop());

function clientOf(key: KeyringEntry, extra: Partial<ExchangeClientOptions> = {}): ExchangeClient {
  return new ExchangeClient({ baseUrl: t.baseUrl, credentials: { apiKey: key.apiKey, apiSecret: key.secret }, time: systemTime, timeoutMs: 2000, ...extra });
}

function payload<T>(result: { ok: true; value: unknown } | { ok: false; error: Error }): T {
  if (!result.ok) throw result.error;
  return result.value as T;
}

describe('ExchangeClient against SimHttpServer', () => {
  it('syncs its clock and passes authentication on signed GETs, v1 form POSTs and v2 JSON POSTs', async () => {
    await start();
    const client = clientOf(TRADER);
    expect((await client.timeSync.sync()).ok).toBe(true);
    const balance = payload<Echo>(await client.rest.call({ endpoint: ENDPOINTS.futuresBalance, query: orderedParams({ category: 'USDC' }) }));
    expect(balance).toMatchObject({ userId: '1001', category: 'USDC' });
    const form = payload<Echo>(await client.rest.call({ endpoint: ENDPOINTS.orderV1Create, form: orderedParams({ symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', price: '19000.5' }) }));
    expect(form.params).toMatchObject({ symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', price: '19000.5', recvWindow: '5000' });
    const v2 = payload<Echo>(await client.rest.call({ endpoint: ENDPOINTS.orderV2Create, json: { symbol: 'BTC-SWAP-USDT', quantity: '1' } }));
    expect(v2.json).toEqual({ symbol: 'BTC-SWAP-USDT', quantity: '1' });
    const pretty = payload<Echo>(await client.rest.call({ endpoint: ENDPOINTS.orderV2Create, rawJson: '{\n  "symbol": "ETH-SWAP-USDT"\n}' }));
    expect(pretty.json).toEqual({ symbol: 'ETH-SWAP-USDT' });
  });

  it('batches: v1 signed over the query alone, v2 over query + body; legs reach the route', async () => {
    await start();
    const client = clientOf(TRADER);
    const legs = [{ newClientOrderId: 'a' }, { newClientOrderId: 'b' }];
    const v1 = payload<Echo>(await client.rest.call({ endpoint: ENDPOINTS.batchOrdersV1, json: legs, orders: 2 }));
    expect(v1.json).toEqual(legs);
    const v2 = payload<Echo>(await client.rest.call({ endpoint: ENDPOINTS.batchOrdersV2, json: legs, orders: 2 }));
    expect(v2.json).toEqual(legs);
  });

  it('listen key, follower path template, and error mapping (-1020, -2013 with traceId)', async () => {
    await start();
    const trader = clientOf(TRADER);
    expect(await trader.userStream.createListenKey()).toEqual({ ok: true, value: 'key-of-1001' });
    expect((await clientOf(FOLLOWER).follower.unfollow('123456789')).ok).toBe(true);
    const refusedFollow = await trader.follower.unfollow('123456789');
    expect(!refusedFollow.ok && refusedFollow.error).toMatchObject({ kind: 'rejected', code: -2015 });
    const readOnly = await clientOf(READ_ONLY).account.leverage('BTC-SWAP-USDT', 5);
    expect(!readOnly.ok && readOnly.error).toMatchObject({ kind: 'rejected', code: -1020, httpStatus: 400 });
    const missing = await trader.rest.call({ endpoint: ENDPOINTS.orderV2Get, query: orderedParams({ orderId: '1' }) });
    expect(!missing.ok && missing.error).toMatchObject({ kind: 'rejected', code: -2013, httpStatus: 400 });
    expect(!missing.ok && missing.error.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('recovers from -1021 with its time sync when the server clock runs ahead', async () => {
    await start({ clockSkewMs: 30_000 });
    const client = clientOf(TRADER);
    const balance = await client.rest.call({ endpoint: ENDPOINTS.futuresBalance });
    expect(balance.ok).toBe(true);
    expect(Math.abs(client.timeSync.offset - 30_000)).toBeLessThan(1000);
    const metrics = await t.server.registry.metrics();
    expect(metrics).toContain('stratd_sim_requests_total{route="GET /api/v1/futures/balance",status="400"} 1');
    expect(metrics).toContain('stratd_sim_requests_total{route="GET /api/v1/futures/balance",status="200"} 1');
  });

  it('429 becomes rate-limited with the reset time; 5xx and a held request become unknown-status', async () => {
    await start({ rateLimitShare: 0.002 }); // 6 weight
    // Another process on the same key spends the budget; this client then hears 429 and backs off.
    expect((await clientOf(TRADER).rest.call({ endpoint: ENDPOINTS.futuresBalance })).ok).toBe(true);
    const client = clientOf(TRADER);
    const limited = await client.rest.call({ endpoint: ENDPOINTS.futuresBalance });
    expect(!limited.ok && limited.error).toMatchObject({ kind: 'rate-limited', code: -1003, httpStatus: 429 });
    expect(client.governor.snapshot().pausedUntil).toBeGreaterThan(Date.now());

    t.server.faults.update({ rateLimitShare: 1, http5xxRate: 1 });
    const fresh = clientOf(TRADER);
    const failed = await fresh.rest.call({ endpoint: ENDPOINTS.orderV2Create, json: {} });
    expect(!failed.ok && failed.error).toMatchObject({ kind: 'unknown-status' });

    t.server.faults.update({ http5xxRate: 0, lostReplyRate: 1 });
    const lost = await clientOf(TRADER, { timeoutMs: 300 }).rest.call({ endpoint: ENDPOINTS.orderV2Create, json: { symbol: 'X' } });
    expect(!lost.ok && lost.error).toMatchObject({ kind: 'unknown-status' });
    expect(!lost.ok && lost.error.message).toContain('timed out');
    expect(t.routes.count(ENDPOINTS.orderV2Create)).toBe(1); // executed once, never answered
  });
});
