import { Registry } from 'prom-client';
import { HealthServer } from '../../src/app/control/server.js';
import type { ControlRequest, HealthReport } from '../../src/app/control/server.js';
import { dec } from '../../src/core/decimal.js';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';

/** /readyz, /status, POST /control/… and the bearer token, over loopback. */
const TOKEN = 'a-test-token-of-32-characters-xx';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

describe('HealthServer endpoints', () => {
  let ready: HealthReport = { healthy: true };
  const seen: ControlRequest[] = [];
  const server = new HealthServer({
    host: '127.0.0.1',
    port: 0,
    registry: new Registry(),
    logger: silentLogger,
    token: TOKEN,
    clock: new VirtualClock(0),
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
    const reply = await fetch(`${url}/status`, { headers: AUTH });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(await reply.json()).toEqual({ pnlToday: '-1.5', strategies: [{ id: 'mm', params: { quantity: '0.00000001' } }] });
  });

  it('POST /control/…: JSON only, the body parsed, the handler’s status and body returned', async () => {
    const halt = await fetch(`${url}/control/halt`, { method: 'POST', headers: JSON_AUTH, body: '{"reason":"test"}' });
    expect(halt.status).toBe(200);
    expect(await halt.json()).toEqual({ killSwitch: { engaged: true } });
    expect(seen.at(-1)).toEqual({ path: '/halt', body: { reason: 'test' }, caller: { address: '127.0.0.1', port: expect.any(Number) } });
    const empty = await fetch(`${url}/control/resume`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json; charset=utf-8' } });
    expect(empty.status).toBe(404);
    expect(seen.at(-1)).toMatchObject({ path: '/resume', body: {} });
    // A form or text body (what a web page may send cross-origin without a preflight) is refused.
    const form = await fetch(`${url}/control/halt`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: '{}' });
    expect(form.status).toBe(415);
    const notJson = await fetch(`${url}/control/halt`, { method: 'POST', headers: JSON_AUTH, body: '{' });
    expect(notJson.status).toBe(400);
    const get = await fetch(`${url}/control/halt`, { headers: AUTH });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const huge = await fetch(`${url}/control/halt`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ reason: 'x'.repeat(70_000) }) });
    expect(huge.status).toBe(413);
    expect(seen).toHaveLength(2);
  });

  it('without a status or control handler those paths are 404', async () => {
    const bare = new HealthServer({ port: 0, registry: new Registry(), logger: silentLogger, token: TOKEN, clock: new VirtualClock(0) });
    const started = await bare.start();
    if (!started.ok) throw started.error;
    try {
      expect((await fetch(`${started.value.url}/status`, { headers: AUTH })).status).toBe(404);
      expect((await fetch(`${started.value.url}/readyz`)).status).toBe(404);
      expect((await fetch(`${started.value.url}/control/halt`, { method: 'POST', headers: JSON_AUTH })).status).toBe(404);
    } finally {
      await bare.stop();
    }
  });
});

describe('HealthServer: the bearer token, also on loopback', () => {
  const clock = new VirtualClock(0);
  const seen: ControlRequest[] = [];
  const server = new HealthServer({
    port: 0,
    registry: new Registry(),
    logger: silentLogger,
    token: TOKEN,
    clock,
    ready: () => ({ healthy: true }),
    status: () => ({ ok: true }),
    control: async (request) => {
      seen.push(request);
      return { status: 200, body: { done: true } };
    },
  });
  let url = '';
  beforeAll(async () => {
    const started = await server.start();
    if (!started.ok) throw started.error;
    url = started.value.url;
  });
  afterAll(() => server.stop());

  it('/healthz, and on loopback /readyz and /metrics, stay open (probes and scrapers carry no token)', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await fetch(`${url}${path}`)).status).toBe(200);
  });

  it('/status and /control/… answer 401 without the token or with a wrong one; the handler never runs', async () => {
    const status = await fetch(`${url}/status`);
    expect(status.status).toBe(401);
    expect(status.headers.get('www-authenticate')).toBe('Bearer realm="stratd"');
    expect((await fetch(`${url}/status`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(`${url}/nowhere`, { headers: { authorization: TOKEN } })).status).toBe(401);
    const control = await fetch(`${url}/control/halt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(control.status).toBe(401);
    expect(seen).toEqual([]);
  });

  it('with Authorization: Bearer <token> they answer', async () => {
    expect(await (await fetch(`${url}/status`, { headers: AUTH })).json()).toEqual({ ok: true });
    expect((await fetch(`${url}/nowhere`, { headers: AUTH })).status).toBe(404);
    const control = await fetch(`${url}/control/halt`, { method: 'POST', headers: JSON_AUTH, body: '{}' });
    expect(await control.json()).toEqual({ done: true });
    expect(seen).toHaveLength(1);
  });

  it('after 5 failed tokens an address waits (429, Retry-After, doubling), even with the right token; a success later forgets the failures', async () => {
    for (let i = 0; i < 5; i += 1) expect((await fetch(`${url}/status`, { headers: { authorization: `Bearer wrong-${i}` } })).status).toBe(401);
    const throttled = await fetch(`${url}/status`, { headers: AUTH });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('1');
    clock.advanceBy(1000);
    expect((await fetch(`${url}/status`, { headers: { authorization: 'Bearer wrong-again' } })).status).toBe(401);
    const longer = await fetch(`${url}/status`, { headers: AUTH });
    expect(longer.status).toBe(429);
    expect(longer.headers.get('retry-after')).toBe('2');
    clock.advanceBy(2000);
    expect((await fetch(`${url}/status`, { headers: AUTH })).status).toBe(200);
    expect((await fetch(`${url}/status`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${url}/status`, { headers: AUTH })).status).toBe(200);
  });

  it('a Host that is not this server (DNS rebinding) is refused with 421, token or not; loopback names with the port pass', async () => {
    const port = new URL(url).port;
    const { request } = await import('node:http');
    const ask = (host: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/status', headers: { host, ...AUTH } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    for (const host of ['evil.example:' + port, `127.0.0.1:${Number(port) + 1}`, 'localhost', `attacker.test`]) expect(await ask(host)).toBe(421);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) expect(await ask(host)).toBe(200);
    expect(seen.every((r) => r.caller.address === '127.0.0.1')).toBe(true);
  });
});
