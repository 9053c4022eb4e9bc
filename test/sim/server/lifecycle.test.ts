import { Agent, request } from 'node:http';
import { Counter } from 'prom-client';
import { unwrap } from '../../../src/core/result.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { simConfigSchema } from '../../../src/sim/config/sim-config.js';
import { SimHttpServer } from '../../../src/sim/server/index.js';
import { readYamlFile } from '../../../src/settings/yaml-source.js';
import { json, send, signedTarget, TestRoutes } from './harness.js';

function configServer(): SimHttpServer {
  const config = simConfigSchema.parse(unwrap(readYamlFile('config/sim.yml')).value);
  const server = SimHttpServer.fromConfig(config, new VirtualClock(1_790_112_378_318), { port: 0 });
  server.mount(new TestRoutes().all());
  return server;
}

describe('SimHttpServer lifecycle', () => {
  it('built from config/sim.yml: its keys sign, its admin token opens /admin/faults', async () => {
    const server = configServer();
    const { port, baseUrl } = await server.start();
    try {
      expect(port).toBeGreaterThan(0);
      expect(baseUrl).toBe(`http://127.0.0.1:${port}`);
      expect(server.listeningOn).toEqual({ port, baseUrl });
      const trader = { apiKey: 'simTraderKey0000000000000000000000000000000000000000000000000001', secret: 'simTraderSecret000000000000000000000000000000000000000000000001', userId: '879141111', readOnly: false, accountType: 'FUTURES' } as const;
      const reply = await send(port, { method: 'GET', target: signedTarget(trader, '/api/v1/futures/balance', `timestamp=${server.now()}`), headers: { 'X-BB-APIKEY': trader.apiKey } });
      expect(json(reply)).toMatchObject({ userId: '879141111' });
      expect((await send(port, { method: 'GET', target: '/admin/faults', headers: { Authorization: 'Bearer simAdminToken0000000000000000006' } })).status).toBe(200);
    } finally {
      await server.stop();
    }
    expect(server.listeningOn).toBeUndefined();
  });

  it('other parts register metrics on its registry and attach to upgrade requests', async () => {
    const server = configServer();
    const { port } = await server.start();
    try {
      const streams = new Counter({ name: 'stratd_sim_test_streams_total', help: 'test', registers: [server.registry] });
      streams.inc(2);
      server.metrics.faultsInjected.inc({ kind: 'ws_drop' });
      const text = (await send(port, { method: 'GET', target: '/metrics' })).body;
      expect(text).toContain('stratd_sim_test_streams_total 2');
      expect(text).toContain('stratd_sim_faults_injected_total{kind="ws_drop"} 1');

      const upgraded: string[] = [];
      server.httpServer.on('upgrade', (req, socket) => {
        upgraded.push(req.url ?? '');
        socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      });
      await new Promise<void>((resolve, reject) => {
        const outgoing = request({ host: '127.0.0.1', port, path: '/api/v1/ws/abc', headers: { Connection: 'Upgrade', Upgrade: 'websocket' }, agent: false });
        outgoing.on('upgrade', (_res, socket) => {
          socket.destroy();
          resolve();
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
      expect(upgraded).toEqual(['/api/v1/ws/abc']);
    } finally {
      await server.stop();
    }
  });

  it('stop() closes idle keep-alive connections too', async () => {
    const server = configServer();
    const { port } = await server.start();
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port, path: '/api/v1/time', agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    await server.stop();
    expect(server.httpServer.listening).toBe(false);
    agent.destroy();
  });
});
