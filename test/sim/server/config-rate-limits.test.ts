import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { simConfigSchema } from '../../../src/sim/config/sim-config.js';
import { SimHttpServer } from '../../../src/sim/server/sim-http-server.js';
import { json, send, TestRoutes } from './harness.js';

/** config/sim.yml with its own `rateLimits:` section, on any free port. */
function configWith(rateLimits: object) {
  const base = parse(readFileSync('config/sim.yml', 'utf8')) as Record<string, unknown>;
  return simConfigSchema.parse({ ...base, port: 0, rateLimits });
}

const deepDepth = (port: number): ReturnType<typeof send> => send(port, { method: 'GET', target: '/quote/v1/depth?symbol=BTC-SWAP-USDT&limit=1000' });

test("a sim config's rateLimits replace the exchange's budgets it names, and keep the others", async () => {
  const server = SimHttpServer.fromConfig(configWith({ weightLimit: 30, banAfterRejections: 1, banMs: 60_000 }), new VirtualClock(1_790_112_370_000));
  server.mount(new TestRoutes().all());
  const { port } = await server.start();
  try {
    for (let i = 0; i < 3; i++) expect((await deepDepth(port)).status).toBe(200); // 10 weight each
    const refused = await deepDepth(port);
    expect({ status: refused.status, body: json(refused) }).toEqual({ status: 429, body: { code: -1003, msg: 'Too many requests; current limit is 30 request weight per minute.' } });
    // The refusal bans the address (the exchange's own threshold is 10 refusals).
    expect((await deepDepth(port)).status).toBe(418);
  } finally {
    await server.stop();
  }
});

test('a sim config refuses a budget it does not know', () => {
  expect(simConfigSchema.safeParse({ ...(parse(readFileSync('config/sim.yml', 'utf8')) as object), rateLimits: { weightLimits: 5 } }).success).toBe(false);
});
