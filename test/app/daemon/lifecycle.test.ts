import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Daemon } from '../../../src/app/daemon/daemon.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { DaemonConfig } from '../../../src/settings/daemon-config/daemon-config.js';
import type { Environment } from '../../../src/settings/secrets.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim, value } from '../../sim/e2e/sim-harness.js';
import { liveEnv, liveYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { Probe } from './probe-strategy.js';
import { runUntil } from './virtual-steps.js';

/**
 * The daemon's lifecycle around the kernel: the kill switch acting on the exchange, and start-up
 * failures that leave nothing behind (the state file is released, so the next start works).
 */
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
const daemons: Daemon[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-lifecycle-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
});
afterEach(async () => {
  for (const d of daemons.splice(0)) await d.stop();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function config(name: string, text: string, env: Environment = liveEnv(s)): Promise<DaemonConfig> {
  const prepared = await prepareRun({ config: writeConfig(dir, name, text) }, env);
  if (!prepared.ok) throw prepared.error;
  return prepared.value.config;
}

describe('the kill switch on a running daemon', () => {
  it('halt cancels the open regular and plan orders on the exchange and denies opening orders; resume lets them through again', async () => {
    const probe = new Probe('probe', [BTC]);
    const d = await startDaemon(writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state'))), clock, [probe.instance()], liveEnv(s));
    daemons.push(d);
    await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
    const mid = d.kernel.cache.midPrice(BTC) ?? dec(0);
    probe.emit({ type: 'place', key: 'ks-rest', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95'), quantity: dec(1) });
    probe.emit({ type: 'plan', key: 'ks-plan', symbol: BTC, side: 'BUY', triggerPrice: mid.mul('1.1'), orderType: 'MARKET', quantity: dec(1) });
    await runUntil(clock, () => d.kernel.cache.openOrders().length === 1 && d.kernel.cache.openAlgoOrders().length === 1, 'both orders open');

    d.kernel.halt('operator halt');
    await runUntil(clock, () => d.kernel.cache.openOrders().length === 0 && d.kernel.cache.openAlgoOrders().length === 0, 'everything cancelled');
    const trader = s.client('trader', { recvWindowMs: 60_000 });
    expect(value(await trader.ordersV2.openOrders({}))).toEqual([]);
    expect(value(await trader.algo.openAlgoOrders({}))).toEqual([]);
    probe.emit({ type: 'place', key: 'ks-after', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95'), quantity: dec(1) });
    expect(probe.of('intent.denied').map((e) => e.denial.code)).toEqual(['KILL_SWITCH']);
    expect(probe.of('risk.killSwitch').at(-1)).toMatchObject({ engaged: true, reason: 'operator halt' });

    d.kernel.resume();
    probe.emit({ type: 'place', key: 'ks-resumed', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95'), quantity: dec(1) });
    const resumed = probe.clientOrderId('ks-resumed');
    await runUntil(clock, () => d.kernel.cache.order(resumed)?.status === 'NEW', 'the order after resume');
    expect(value(await trader.ordersV2.openOrders({})).map((o) => o.clientOrderId)).toEqual([resumed]);
  });
});

describe('start-up failures', () => {
  it('an unreachable exchange: DaemonStartError, and the state dir is released for the next start', async () => {
    const stateDir = join(dir, 'state');
    const unreachable = await config('down.yml', liveYaml(stateDir), { ...liveEnv(s), TEST_SIM_BASE_URL: 'http://127.0.0.1:9' });
    const failed = await Daemon.start({ config: unreachable, strategies: [], time: clock, logger: silentLogger });
    if (failed.ok) throw new Error('expected a start-up failure');
    expect(failed.error.name).toBe('DaemonStartError');
    expect(failed.error.message).toContain('cannot reach the exchange at start');

    const started = await Daemon.start({ config: await config('up.yml', liveYaml(stateDir)), strategies: [], time: clock, logger: silentLogger });
    if (!started.ok) throw started.error;
    daemons.push(started.value);
    expect(started.value.kernel.state).toBe('running');
  });

  it('journal.durability: disk fsyncs journal commits in groups beside the send (the default), os leaves commits to the operating system', async () => {
    const durable = await Daemon.start({ config: await config('disk.yml', liveYaml(join(dir, 'disk'))), strategies: [], time: clock, logger: silentLogger });
    if (!durable.ok) throw durable.error;
    daemons.push(durable.value);
    expect(durable.value.stateStore).toMatchObject({ journalMode: 'wal', synchronous: 'NORMAL', fsync: 'group' });
    const buffered = await Daemon.start({
      config: await config('os.yml', `${liveYaml(join(dir, 'os'))}journal: { durability: os }\n`),
      strategies: [],
      time: clock,
      logger: silentLogger,
    });
    if (!buffered.ok) throw buffered.error;
    daemons.push(buffered.value);
    expect(buffered.value.stateStore).toMatchObject({ journalMode: 'wal', synchronous: 'NORMAL', fsync: 'checkpoint' });
  });

  it('the health port already in use: DaemonStartError naming it; the other daemon is unaffected and the state dir is released', async () => {
    const first = await startDaemon(writeConfig(dir, 'a.yml', liveYaml(join(dir, 'state-a'))), clock, [], liveEnv(s));
    daemons.push(first);
    const port = new URL(first.health.url).port;
    const clash = await config('b.yml', liveYaml(join(dir, 'state-b'), { healthPort: Number(port) }));
    const failed = await Daemon.start({ config: clash, strategies: [new Probe('probe', [BTC]).instance()], time: clock, logger: silentLogger });
    if (failed.ok) throw new Error('expected a start-up failure');
    expect(failed.error.message).toContain(`127.0.0.1:${port}`);
    expect((await fetch(`${first.health.url}/healthz`)).status).toBe(200);
    expect(first.kernel.state).toBe('running');
    const again = await startDaemon(writeConfig(dir, 'b2.yml', liveYaml(join(dir, 'state-b'))), clock, [], liveEnv(s));
    daemons.push(again);
    expect(again.kernel.state).toBe('running');
  });
});
