import { Counter, Registry } from 'prom-client';
import { HealthServer } from '../../src/app/control/server.js';
import type { HealthReport } from '../../src/app/control/server.js';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';

const AUTH = { token: 'a-test-token-of-32-characters-xx', clock: new VirtualClock(0) };

function registryWithOrders(): Registry {
  const registry = new Registry();
  const submitted = new Counter({ name: 'stratd_orders_submitted_total', help: 'orders submitted', labelNames: ['strategy', 'symbol'], registers: [registry] });
  submitted.inc({ strategy: 'mm-btc', symbol: 'BTC-SWAP-USDT' }, 3);
  return registry;
}

describe('HealthServer over loopback', () => {
  let health: HealthReport = { healthy: true };
  const registry = registryWithOrders();
  const server = new HealthServer({ host: '127.0.0.1', port: 0, registry, logger: silentLogger, ...AUTH, check: () => health });
  let url = '';

  beforeAll(async () => {
    const started = await server.start();
    if (!started.ok) throw started.error;
    url = started.value.url;
    expect(started.value.host).toBe('127.0.0.1');
    expect(started.value.port).toBeGreaterThan(0);
  });
  afterAll(() => server.stop());

  it('/healthz answers 200 {"status":"ok"} while healthy', async () => {
    health = { healthy: true };
    const reply = await fetch(`${url}/healthz`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(await reply.json()).toEqual({ status: 'ok' });
  });

  it('/healthz answers 503 with the reasons when the check reports unhealthy or throws', async () => {
    health = { healthy: false, reasons: ['user stream down'] };
    const reply = await fetch(`${url}/healthz`);
    expect(reply.status).toBe(503);
    expect(await reply.json()).toEqual({ status: 'unhealthy', reasons: ['user stream down'] });
    const throwing = new HealthServer({
      port: 0,
      registry,
      logger: silentLogger,
      ...AUTH,
      check: () => {
        throw new Error('cache not ready');
      },
    });
    const started = await throwing.start();
    if (!started.ok) throw started.error;
    try {
      const failed = await fetch(`${started.value.url}/healthz`);
      expect(failed.status).toBe(503);
      expect(await failed.json()).toEqual({ status: 'unhealthy', reasons: ['health check failed: cache not ready'] });
    } finally {
      await throwing.stop();
    }
  });

  it('/metrics serves the registry in its own content type', async () => {
    const reply = await fetch(`${url}/metrics`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe(registry.contentType);
    expect(await reply.text()).toContain('stratd_orders_submitted_total{strategy="mm-btc",symbol="BTC-SWAP-USDT"} 3');
  });

  it('anything else is 404; other methods are 405', async () => {
    expect((await fetch(`${url}/`, { headers: { authorization: `Bearer ${AUTH.token}` } })).status).toBe(404);
    expect((await fetch(`${url}/healthz/extra`, { headers: { authorization: `Bearer ${AUTH.token}` } })).status).toBe(404);
    expect((await fetch(`${url}/healthz`, { method: 'POST' })).status).toBe(405);
  });

  it('a port in use is a ConfigError naming the health section', async () => {
    const port = Number(new URL(url).port);
    const second = new HealthServer({ host: '127.0.0.1', port, registry, logger: silentLogger, ...AUTH });
    const started = await second.start();
    expect(started.ok).toBe(false);
    if (started.ok) return;
    expect(started.error.message).toContain(`127.0.0.1:${port}`);
    expect(started.error.message).toContain('EADDRINUSE');
    expect(started.error.location.path).toBe('health');
  });
});
