import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Daemon } from '../../src/app/daemon/daemon.js';
import { createLogger } from '../../src/app/logging/logger.js';
import { prepareRun } from '../../src/app/commands/run.js';
import { dec } from '../../src/core/decimal.js';
import type { RunningSim } from '../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim, value } from '../sim/e2e/sim-harness.js';
import { setFaults } from '../venue/port/admin-faults.js';
import { waitFor } from '../venue/stream/session-harness.js';
import { BusRecorder } from './daemon/bus-recorder.js';
import { liveEnv, liveYaml, writeConfig } from './daemon/daemon-harness.js';
import { Probe } from './daemon/probe-strategy.js';
import { runUntil } from './daemon/virtual-steps.js';

/**
 * A full live run of the daemon in-process (against the simulator on loopback, keys from the
 * environment as in production), logging at level trace through the daemon's own logger: start-up,
 * orders and fills, a dropped stream, an expired listen key with failing REST calls, jobs, stop. The
 * whole log text then holds neither the configured API key nor the secret, nor any request signature
 * (HMAC-SHA256 hex), nor any listen key the daemon used.
 */
let dir: string;
let s: RunningSim;
let daemon: Daemon | undefined;
const lines: string[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-redaction-'));
  s = await startSim({ warmupMs: MINUTE });
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

function sink(): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
}

describe('no secret, signature or listen key in the logs of a full run', () => {
  it('start, orders, a dropped stream, an expired listen key, jobs, stop', async () => {
    const env = liveEnv(s);
    const prepared = await prepareRun({ config: writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state'), { cancelOpenOrders: true })) }, env);
    if (!prepared.ok) throw prepared.error;
    const probe = new Probe('probe', [BTC]);
    const logger = createLogger({ destination: sink(), level: 'trace' });
    const started = await Daemon.start({ config: prepared.value.config, strategies: [...prepared.value.strategies, probe.instance()], time: s.clock, logger });
    if (!started.ok) throw started.error;
    const d = started.value;
    daemon = d;
    const bus = new BusRecorder(d);
    const clock = s.clock;
    // The trader key is the daemon's: POST /listenKey answers the daemon's current key (and extends it).
    const trader = s.client('trader', { recvWindowMs: 60_000 });
    const listenKeys = new Set<string>([value(await trader.userStream.createListenKey())]);
    await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');

    // Orders: one fills, one rests.
    const mid = d.kernel.cache.midPrice(BTC) ?? dec(0);
    probe.emit({ type: 'place', key: 'r-market', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(2) });
    probe.emit({ type: 'place', key: 'r-rest', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.97'), quantity: dec(1) });
    const filled = probe.clientOrderId('r-market');
    const resting = probe.clientOrderId('r-rest');
    await runUntil(clock, () => d.kernel.cache.order(filled)?.status === 'FILLED' && d.kernel.cache.order(resting)?.status === 'NEW', 'the fill and the resting order');

    // The socket dropped by the server after the next event: a reconnect (epoch 2).
    await setFaults(s, { wsDropRate: 1 });
    probe.emit({ type: 'cancel', clientOrderId: resting });
    await waitFor(() => bus.of('stream.disconnected').length > 0, 'the drop');
    await setFaults(s, { wsDropRate: 0 });
    await runUntil(clock, () => bus.of('stream.connected').some((e) => e.epoch === 2), 'the reconnect', { stepMs: 100 });

    // The listen key runs out while every REST call fails (keepalives, new keys): a new key, epoch 3.
    await setFaults(s, { listenKeyTtlMs: 2 * MINUTE });
    listenKeys.add(value(await trader.userStream.createListenKey()));
    await setFaults(s, { http5xxRate: 1 });
    expect((await d.runJob('listenKeyKeepalive')).status).toBe('failed');
    await runUntil(clock, () => bus.of('stream.disconnected').length > 1, 'the expiry', { stepMs: 1000, maxMs: 5 * MINUTE });
    await setFaults(s, { http5xxRate: 0, listenKeyTtlMs: 3_600_000 });
    await runUntil(clock, () => bus.of('stream.connected').some((e) => e.epoch === 3), 'the second reconnect', { stepMs: 100 });
    listenKeys.add(value(await trader.userStream.createListenKey()));
    expect(listenKeys.size).toBe(2);

    for (const job of ['listenKeyKeepalive', 'reconcile', 'exchangeInfoRefresh']) expect((await d.runJob(job)).status).toBe('ok');
    bus.stop();
    await d.stop();
    daemon = undefined;

    const text = lines.join('');
    // The run was logged (at every level down to trace) as JSON lines.
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    const { TEST_API_KEY: apiKey, TEST_API_SECRET: apiSecret } = env;
    if (apiKey === undefined || apiSecret === undefined) throw new Error('liveEnv has no keys');
    for (const secret of [apiKey, apiSecret, ...listenKeys]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/[0-9a-fA-F]{64}/);
    expect(text).not.toMatch(/"signature":"(?!\[redacted\])/);
  });
});
