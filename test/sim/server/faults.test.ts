import { VirtualClock } from '../../../src/core/virtual-time.js';
import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import type { FaultSettings } from '../../../src/sim/config/fault-settings.js';
import type { TestServer } from './harness.js';
import { ADMIN_TOKEN, apiKeyHeader, json, send, sendUnanswered, signedTarget, startTestServer, TRADER, until } from './harness.js';

const START = 1_790_112_378_000;
let t: TestServer;
let clock: VirtualClock;
async function start(faults: Partial<FaultSettings>, seed = 7): Promise<void> {
  clock = new VirtualClock(START);
  t = await startTestServer({ faults, seed }, clock);
}
afterEach(() => t.server.stop());

const time = (): ReturnType<typeof send> => send(t.port, { method: 'GET', target: '/api/v1/time' });
const metrics = async (): Promise<string> => (await send(t.port, { method: 'GET', target: '/metrics' })).body;
const admin = (method: string, body?: string, token = ADMIN_TOKEN): ReturnType<typeof send> =>
  send(t.port, { method, target: '/admin/faults', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body }) });

describe('latency', () => {
  it('half the delay before the exchange acts, half before the reply leaves, on the injected scheduler', async () => {
    await start({ latencyMs: 200 });
    const reply = time();
    await until(() => clock.pending() === 1, 'the inbound delay');
    expect(t.routes.count(ENDPOINTS.time)).toBe(0);
    clock.advanceBy(100);
    await until(() => t.routes.count(ENDPOINTS.time) === 1 && clock.pending() === 1, 'the handler and the outbound delay');
    clock.advanceBy(100);
    expect(json(await reply)).toEqual({ serverTime: START + 100 });
    expect(await metrics()).toContain('stratd_sim_faults_injected_total{kind="latency"} 1');
  });
});

describe('HTTP 5xx', () => {
  it('answers 500/502/503 with a short body, traceId, and does not execute', async () => {
    await start({ http5xxRate: 1 });
    const reply = await time();
    expect([500, 502, 503]).toContain(reply.status);
    expect(reply.body).toMatch(/^50[023] /);
    expect(reply.headers['traceid']).toMatch(/^[0-9a-f]{32}$/);
    expect(t.routes.count(ENDPOINTS.time)).toBe(0);
    expect(await metrics()).toContain('stratd_sim_faults_injected_total{kind="http_5xx"} 1');
  });

  it('a seed reproduces the same faults for the same request sequence', async () => {
    const statuses = async (seed: number): Promise<number[]> => {
      await start({ http5xxRate: 0.5 }, seed);
      const out: number[] = [];
      for (let i = 0; i < 16; i++) out.push((await time()).status);
      await t.server.stop();
      return out;
    };
    const first = await statuses(7);
    expect(first).toEqual(await statuses(7));
    expect(first).not.toEqual(await statuses(8));
    expect(first.some((s) => s === 200) && first.some((s) => s >= 500)).toBe(true);
  });
});

describe('timeout and lost reply', () => {
  it('timeout: neither executes nor answers; the socket is held until the server stops', async () => {
    await start({ timeoutRate: 1 });
    const pending = sendUnanswered(t.port, { method: 'GET', target: '/api/v1/time' });
    await until(() => t.server.heldCount === 1, 'the held request');
    expect(t.routes.count(ENDPOINTS.time)).toBe(0);
    await t.server.stop();
    expect(await pending.outcome).toBe('closed');
    expect(t.server.heldCount).toBe(0);
  });

  it('timeout: a client that gives up frees the held socket', async () => {
    await start({ timeoutRate: 1 });
    const pending = sendUnanswered(t.port, { method: 'GET', target: '/api/v1/time' });
    await until(() => t.server.heldCount === 1, 'the held request');
    pending.abort();
    expect(await pending.outcome).toBe('closed');
    await until(() => t.server.heldCount === 0, 'the release');
  });

  it('lost reply: the route executes, then no answer ever comes', async () => {
    await start({ lostReplyRate: 1 });
    const pending = sendUnanswered(t.port, { method: 'GET', target: signedTarget(TRADER, '/api/v1/futures/balance', `timestamp=${START}`), headers: apiKeyHeader(TRADER) });
    await until(() => t.server.heldCount === 1, 'the held request');
    expect(t.routes.count(ENDPOINTS.futuresBalance)).toBe(1);
    pending.abort();
    expect(await pending.outcome).toBe('closed');
    expect(await metrics()).toMatch(/stratd_sim_faults_injected_total\{kind="lost_reply"\} 1/);
    expect(await metrics()).toContain('stratd_sim_requests_total{route="GET /api/v1/futures/balance",status="none"} 1');
  });
});

describe('clock skew', () => {
  it('moves the server clock: time route, timestamp checks and ctx.now', async () => {
    await start({ clockSkewMs: 30_000 });
    expect(json(await time())).toEqual({ serverTime: START + 30_000 });
    expect(t.server.now()).toBe(START + 30_000);
    const local = await send(t.port, { method: 'GET', target: signedTarget(TRADER, '/api/v1/futures/balance', `timestamp=${START}`), headers: apiKeyHeader(TRADER) });
    expect(json(local)).toMatchObject({ code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
    const synced = await send(t.port, { method: 'GET', target: signedTarget(TRADER, '/api/v1/futures/balance', `timestamp=${START + 30_000}`), headers: apiKeyHeader(TRADER) });
    expect(json(synced)).toMatchObject({ now: START + 30_000 });
  });
});

describe('admin endpoint /admin/faults', () => {
  it('needs the bearer token (401 otherwise)', async () => {
    await start({});
    expect((await send(t.port, { method: 'GET', target: '/admin/faults' })).status).toBe(401);
    expect((await admin('GET', undefined, 'wrong')).status).toBe(401);
    expect((await admin('PUT', '{"http5xxRate":1}', 'wrong')).status).toBe(401);
    expect(t.server.faults.current.http5xxRate).toBe(0);
  });

  it('GET answers the settings; PUT applies a partial update, tells listeners, and leaves other settings alone', async () => {
    await start({ clockSkewMs: 5 });
    expect(json(await admin('GET'))).toEqual(t.server.faults.current);
    const heard: FaultSettings[] = [];
    t.server.faults.onChange((f) => heard.push(f));
    const put = await admin('PUT', '{"http5xxRate":1,"wsDropRate":0.25}');
    expect(put.status).toBe(200);
    expect(json(put)).toMatchObject({ clockSkewMs: 5, http5xxRate: 1, wsDropRate: 0.25 });
    expect(heard).toHaveLength(1);
    expect(heard[0]?.wsDropRate).toBe(0.25);
    expect((await time()).status).toBeGreaterThanOrEqual(500);
    expect((await admin('GET')).status).toBe(200); // no faults on admin and metrics
    expect((await send(t.port, { method: 'GET', target: '/metrics' })).status).toBe(200);
  });

  it('bad input: 400 with the validation message; nothing changes', async () => {
    await start({});
    const negative = await admin('PUT', '{"latencyMs":-1}');
    expect(negative.status).toBe(400);
    expect((json(negative) as { error: string }).error).toContain('latencyMs');
    expect((json(await admin('PUT', '{"bogus":1}')) as { error: string }).error).toContain('bogus');
    expect((await admin('PUT', 'not json')).status).toBe(400);
    expect((await admin('PUT', '[1]')).status).toBe(400);
    expect((await admin('DELETE')).status).toBe(405);
    expect(t.server.faults.current.latencyMs).toBe(0);
  });
});

describe('/metrics', () => {
  it('serves the per-server registry with request, fault and limit counters', async () => {
    await start({});
    await time();
    await send(t.port, { method: 'GET', target: '/nope' });
    const text = await metrics();
    expect(text).toContain('stratd_sim_requests_total{route="GET /api/v1/time",status="200"} 1');
    expect(text).toContain('stratd_sim_requests_total{route="unmatched",status="404"} 1');
    expect(text).toContain('# TYPE stratd_sim_faults_injected_total counter');
    expect(text).toContain('# TYPE stratd_sim_rate_limited_total counter');
  });
});
