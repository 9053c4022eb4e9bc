import { exposureWarning } from '../../../src/app/commands/sim.js';
import { ADMIN_TOKEN, send, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

/**
 * The simulator beyond loopback: `stratd sim` warns, its /metrics wants the admin token as the daemon's
 * does, and the admin token is compared in constant time (a wrong token of the same length is as
 * refused as any other). The wildcard-bound server is only ever reached over 127.0.0.1 here.
 */
describe('the simulator beyond loopback', () => {
  it('stratd sim warns when its host is not loopback, and only then', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) expect(exposureWarning(host)).toBeUndefined();
    for (const host of ['0.0.0.0', '::', '192.0.2.10']) expect(exposureWarning(host)).toContain(`WARNING: listening on ${host}, beyond loopback`);
  });

  describe('/metrics', () => {
    let t: TestServer | undefined;
    afterEach(async () => {
      await t?.server.stop();
      t = undefined;
    });

    it('open on loopback (Prometheus convention)', async () => {
      t = await startTestServer();
      expect((await send(t.port, { method: 'GET', target: '/metrics' })).status).toBe(200);
    });

    it('bound beyond loopback: 401 without the admin token, 200 with it', async () => {
      t = await startTestServer({ host: '0.0.0.0' });
      const bare = await send(t.port, { method: 'GET', target: '/metrics' });
      expect(bare.status).toBe(401);
      expect(bare.headers['www-authenticate']).toBe('Bearer');
      expect((await send(t.port, { method: 'GET', target: '/metrics', headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const authed = await send(t.port, { method: 'GET', target: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(authed.status).toBe(200);
      expect(authed.body).toContain('# TYPE');
    });
  });

  it('/admin/faults: the exact admin token only; one of the same length that differs is refused', async () => {
    const t = await startTestServer();
    try {
      const sameLength = `${ADMIN_TOKEN.slice(0, -1)}${ADMIN_TOKEN.endsWith('f') ? 'e' : 'f'}`;
      expect((await send(t.port, { method: 'GET', target: '/admin/faults', headers: { authorization: `Bearer ${sameLength}` } })).status).toBe(401);
      expect((await send(t.port, { method: 'GET', target: '/admin/faults', headers: { authorization: `bearer ${ADMIN_TOKEN}` } })).status).toBe(200);
      expect((await send(t.port, { method: 'GET', target: '/admin/faults', headers: { authorization: ADMIN_TOKEN } })).status).toBe(401);
    } finally {
      await t.server.stop();
    }
  });
});
