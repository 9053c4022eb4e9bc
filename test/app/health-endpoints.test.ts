import { Registry } from 'prom-client';
import { HealthServer } from '../../src/app/health-server.js';
import type { ControlRequest, HealthReport } from '../../src/app/health-server.js';
import { dec } from '../../src/core/decimal.js';
import { silentLogger } from '../../src/core/logger.js';

/** /readyz, /status, POST /control/… and the bearer token, over loopback. */
const TOKEN = 'a-test-token-of-32-characters-xx';

describe('HealthServer endpoints', () => {
  let ready: HealthReport = { healthy: true };
  const seen: ControlRequest[] = [];
  const server = new HealthServer({
    host: '127.0.0.1',
    port: 0,
    registry: new Registry(),
    logger: silentLogger,
    ready: () => ready,
    status: () => ({ pnlToday: dec('-1.50'), strategies: [{ id: 'mm', params: { quantity: dec('1e-8') } }] }),
    control: async (request) => {
      seen.push(request);
      return request.path === '/halt' ? { status: 200, body: { killSwitch: { engaged: true } } } : { status: 404, body: { error: 'not found' } };
    },
  });
  let url = '';
  beforeAll(async () => {
    const started = await server.start();
    if (!started.ok) throw started.error;
    url = started.value.url;
  });
  afterAll(() => server.stop());

  it('/readyz: 200 when ready, 503 with the reasons when not', async () => {
    ready = { healthy: true };
    const good = await fetch(`${url}/readyz`);
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ status: 'ok' });
    ready = { healthy: false, reasons: ['user stream USDT backoff', 'no reconciliation yet'] };
    const bad = await fetch(`${url}/readyz`);
    expect(bad.status).toBe(503);
    expect(await bad.json()).toEqual({ status: 'unhealthy', reasons: ['user stream USDT backoff', 'no reconciliation yet'] });
  });

  it('/status: JSON with decimals as plain text', async () => {
    const reply = await fetch(`${url}/status`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(await reply.json()).toEqual({ pnlToday: '-1.5', strategies: [{ id: 'mm', params: { quantity: '0.00000001' } }] });
  });

  it('POST /control/…: JSON only, the body parsed, the handler’s status and body returned', async () => {
    const halt = await fetch(`${url}/control/halt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"reason":"test"}' });
    expect(halt.status).toBe(200);
    expect(await halt.json()).toEqual({ killSwitch: { engaged: true } });
    expect(seen.at(-1)).toEqual({ path: '/halt', body: { reason: 'test' } });
    const empty = await fetch(`${url}/control/resume`, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(empty.status).toBe(404);
    expect(seen.at(-1)).toEqual({ path: '/resume', body: {} });
    // A form or text body (what a web page may send cross-origin without a preflight) is refused.
    const form = await fetch(`${url}/control/halt`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(form.status).toBe(415);
    const notJson = await fetch(`${url}/control/halt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(notJson.status).toBe(400);
    const get = await fetch(`${url}/control/halt`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const huge = await fetch(`${url}/control/halt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'x'.repeat(70_000) }) });
    expect(huge.status).toBe(413);
    expect(seen).toHaveLength(2);
  });

  it('without a status or control handler those paths are 404', async () => {
    const bare = new HealthServer({ port: 0, registry: new Registry(), logger: silentLogger });
    const started = await bare.start();
    if (!started.ok) throw started.error;
    try {
      expect((await fetch(`${started.value.url}/status`)).status).toBe(404);
      expect((await fetch(`${started.value.url}/readyz`)).status).toBe(404);
      expect((await fetch(`${started.value.url}/control/halt`, { method: 'POST', headers: { 'content-type': 'application/json' } })).status).toBe(404);
    } finally {
      await bare.stop();
    }
  });
});

describe('HealthServer with a bearer token', () => {
  const server = new HealthServer({
    port: 0,
    registry: new Registry(),
    logger: silentLogger,
    token: TOKEN,
    ready: () => ({ healthy: true }),
    status: () => ({ ok: true }),
    control: async () => ({ status: 200, body: { done: true } }),
  });
  let url = '';
  beforeAll(async () => {
    const started = await server.start();
    if (!started.ok) throw started.error;
    url = started.value.url;
  });
  afterAll(() => server.stop());

  it('/healthz stays open (probes carry no token)', async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('every other endpoint answers 401 without the token, or with a wrong one', async () => {
    for (const path of ['/readyz', '/status', '/metrics', '/nowhere']) {
      const reply = await fetch(`${url}${path}`);
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="stratd"');
      expect((await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
      expect((await fetch(`${url}${path}`, { headers: { authorization: TOKEN } })).status).toBe(401);
    }
    const control = await fetch(`${url}/control/halt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(control.status).toBe(401);
  });

  it('with Authorization: Bearer <token> they answer', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await fetch(`${url}/readyz`, { headers: auth })).status).toBe(200);
    expect(await (await fetch(`${url}/status`, { headers: auth })).json()).toEqual({ ok: true });
    expect((await fetch(`${url}/metrics`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${url}/nowhere`, { headers: auth })).status).toBe(404);
    const control = await fetch(`${url}/control/halt`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    expect(await control.json()).toEqual({ done: true });
  });
});
