import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { Daemon } from '../../src/app/daemon/daemon.js';
import { HealthServer } from '../../src/app/control/server.js';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { loadDaemonConfig } from '../../src/settings/daemon-config/daemon-config.js';
import { paperYaml } from './daemon/daemon-harness.js';

/**
 * health.tls: the health/control server speaks HTTPS (for a bind beyond loopback, where the token would
 * otherwise cross the network in clear). The certificate under test/app/tls is a self-signed one for
 * 127.0.0.1 and localhost, made for these tests only; its key protects nothing.
 */
const TLS_DIR = fileURLToPath(new URL('./tls/', import.meta.url));
const cert = readFileSync(join(TLS_DIR, 'test-cert.pem'), 'utf8');
const key = readFileSync(join(TLS_DIR, 'test-key.pem'), 'utf8');
const TOKEN = 'a-test-token-of-32-characters-xx';

function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca: cert, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the health server over TLS', () => {
  it('answers https with the token, 401 without; the URL says https', async () => {
    const server = new HealthServer({ port: 0, registry: new Registry(), logger: silentLogger, token: TOKEN, clock: new VirtualClock(0), status: () => ({ ok: true }), tls: { cert, key } });
    const started = await server.start();
    if (!started.ok) throw started.error;
    try {
      expect(started.value.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(await get(`${started.value.url}/status`, { authorization: `Bearer ${TOKEN}` })).toEqual({ status: 200, body: '{"ok":true}' });
      expect((await get(`${started.value.url}/status`, {})).status).toBe(401);
      expect((await get(`${started.value.url}/healthz`, {})).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('a certificate file that cannot be read stops the start-up with a ConfigError at health.tls.cert, before anything opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stratd-health-tls-'));
    try {
      const file = join(dir, 'paper.yml');
      writeFileSync(file, paperYaml(join(dir, 'state')).replace('health: { host: 127.0.0.1, port: 0 }', 'health: { host: 127.0.0.1, port: 0, tls: { cert: missing-cert.pem, key: missing-key.pem } }'));
      const loaded = loadDaemonConfig(file, { env: {} });
      if (!loaded.ok) throw loaded.error;
      expect(loaded.value.health.tls).toEqual({ cert: join(dir, 'missing-cert.pem'), key: join(dir, 'missing-key.pem') });
      const started = await Daemon.start({ config: loaded.value, strategies: [], time: new VirtualClock(0), logger: silentLogger, env: {}, hangup: null });
      if (started.ok) throw new Error('expected a start-up failure');
      expect(started.error.message).toContain('health.tls.cert');
      expect(started.error.message).toContain('missing-cert.pem');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
