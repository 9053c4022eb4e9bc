import { VirtualClock } from '../../../src/core/virtual-time.js';
import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import type { KeyringEntry } from '../../../src/sim/server/index.js';
import type { TestServer } from './harness.js';
import { apiKeyHeader, JSON_TYPE, json, send, sign, signedTarget, startTestServer, TRADER, TRADER2 } from './harness.js';

const MINUTE_START = 1_790_112_360_000; // a whole minute
let t: TestServer;
let clock: VirtualClock;

async function start(share = 1): Promise<void> {
  clock = new VirtualClock(MINUTE_START + 10_000);
  t = await startTestServer({ faults: { rateLimitShare: share } }, clock);
}
afterEach(() => t.server.stop());

const signedBalance = (key: KeyringEntry = TRADER): ReturnType<typeof send> =>
  send(t.port, { method: 'GET', target: signedTarget(key, '/api/v1/futures/balance', `timestamp=${clock.now()}`), headers: apiKeyHeader(key) });
const deepDepth = (): ReturnType<typeof send> => send(t.port, { method: 'GET', target: '/quote/v1/depth?symbol=BTC-SWAP-USDT&limit=1000' });

function batch(key: KeyringEntry, legs: number): ReturnType<typeof send> {
  const query = `timestamp=${clock.now()}`;
  const body = JSON.stringify(Array.from({ length: legs }, (_, i) => ({ newClientOrderId: `c${i}` })));
  return send(t.port, { method: 'POST', target: `/api/v2/futures/batch-orders?${query}&signature=${sign(key, query + body)}`, headers: apiKeyHeader(key, JSON_TYPE), body });
}

describe('REQUEST_WEIGHT (3000 per minute, fixed window)', () => {
  it('signed replies carry X-Api-Limit headers as integer strings; public replies do not', async () => {
    await start();
    const first = await signedBalance();
    expect(first.headers['x-api-limit']).toBe('3000');
    expect(first.headers['x-api-limit-status']).toBe('2995'); // futures balance weighs 5
    expect(first.headers['x-api-limit-reset-timestamp']).toBe(String(MINUTE_START + 60_000));
    expect((await signedBalance()).headers['x-api-limit-status']).toBe('2990');
    const error = await send(t.port, { method: 'GET', target: signedTarget(TRADER, '/api/v1/futures/balance', 'timestamp=1'), headers: apiKeyHeader(TRADER) });
    expect(json(error)).toMatchObject({ code: -1021 });
    expect(error.headers['x-api-limit-status']).toBe('2985'); // refused calls still weigh
    const pub = await send(t.port, { method: 'GET', target: '/api/v1/time' });
    expect(pub.headers['x-api-limit']).toBeUndefined();
    clock.advanceTo(MINUTE_START + 60_000);
    expect((await signedBalance()).headers['x-api-limit-status']).toBe('2995');
  });

  it('weighs per key for signed calls and per IP for public ones', async () => {
    await start();
    await signedBalance(TRADER);
    await deepDepth();
    expect((await signedBalance(TRADER2)).headers['x-api-limit-status']).toBe('2995');
    expect((await signedBalance(TRADER)).headers['x-api-limit-status']).toBe('2990');
  });

  it('over the budget: 429 with -1003, the handler does not run, the next window admits again', async () => {
    await start(0.01); // 30 weight
    for (let i = 0; i < 3; i++) expect((await deepDepth()).status).toBe(200); // 10 each
    const refused = await deepDepth();
    expect(refused.status).toBe(429);
    expect(json(refused)).toEqual({ code: -1003, msg: 'Too many requests; current limit is 30 request weight per minute.' });
    expect(refused.headers['traceid']).toMatch(/^[0-9a-f]{32}$/);
    expect(t.routes.count(ENDPOINTS.depth)).toBe(3);
    expect((await signedBalance()).status).toBe(200); // the key's own budget
    clock.advanceTo(MINUTE_START + 60_000);
    expect((await deepDepth()).status).toBe(200);
    expect(t.routes.count(ENDPOINTS.depth)).toBe(4);
  });

  it('the rateLimitShare fault applies at once when changed', async () => {
    await start();
    expect(t.server.faults.update({ rateLimitShare: 0.5 }).ok).toBe(true);
    expect((await signedBalance()).headers['x-api-limit']).toBe('1500');
  });
});

describe('ORDERS (60 per 2 s per user, each batch leg counts)', () => {
  it('429 with -1015 when the legs exceed the budget; reset header is the end of the 2 s window', async () => {
    await start(0.1); // 6 orders
    expect((await batch(TRADER, 4)).status).toBe(200);
    const refused = await batch(TRADER2, 3); // same user 1001
    expect(refused.status).toBe(429);
    expect(json(refused)).toEqual({ code: -1015, msg: 'Too many new orders; current limit is 6 orders per 2 seconds.' });
    expect(refused.headers['x-api-limit-reset-timestamp']).toBe(String(MINUTE_START + 12_000));
    expect(t.routes.count(ENDPOINTS.batchOrdersV2)).toBe(1);
    expect((await batch(TRADER, 2)).status).toBe(200);
    clock.advanceBy(2000);
    expect((await batch(TRADER, 6)).status).toBe(200);
    expect(t.routes.count(ENDPOINTS.batchOrdersV2)).toBe(3);
  });

  it('routes that do not spend the budget are not held back by it', async () => {
    await start(0.1);
    await batch(TRADER, 6);
    expect((await signedBalance()).status).toBe(200);
  });
});

describe('IP ban (418)', () => {
  it('more than 10 refusals in a window ban the IP for 2 minutes with -1003 "IP banned until <ms>"', async () => {
    await start(0.01);
    for (let i = 0; i < 3; i++) await deepDepth();
    for (let i = 0; i < 10; i++) expect((await deepDepth()).status).toBe(429);
    const banned = await deepDepth();
    const until = MINUTE_START + 10_000 + 120_000;
    expect(banned.status).toBe(418);
    expect(json(banned)).toEqual({ code: -1003, msg: `IP banned until ${until}` });
    const signed = await signedBalance();
    expect(signed.status).toBe(418);
    expect(signed.headers['x-api-limit-reset-timestamp']).toBe(String(until));
    expect(t.routes.count(ENDPOINTS.futuresBalance)).toBe(0);
    clock.advanceTo(until - 1);
    expect((await send(t.port, { method: 'GET', target: '/api/v1/time' })).status).toBe(418);
    clock.advanceTo(until);
    expect((await send(t.port, { method: 'GET', target: '/api/v1/time' })).status).toBe(200);
    const metrics = (await send(t.port, { method: 'GET', target: '/metrics' })).body;
    expect(metrics).toContain('stratd_sim_rate_limited_total{limit="REQUEST_WEIGHT"} 10');
    expect(metrics).toContain('stratd_sim_rate_limited_total{limit="IP_BAN"} 3');
  });
});
