import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Logger as PinoLogger } from 'pino';
import { Daemon } from '../../../src/app/daemon/daemon.js';
import { createLogger } from '../../../src/app/logging/logger.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import { dec } from '../../../src/core/decimal.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { Environment } from '../../../src/settings/secrets.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim } from '../../sim/e2e/sim-harness.js';
import { waitFor } from '../../venue/stream/session-harness.js';
import { BusRecorder } from './bus-recorder.js';
import { jsonOf, stratd } from './control-cli.js';
import { liveEnv, liveYaml, writeConfig } from './daemon-harness.js';
import { Probe } from './probe-strategy.js';
import { runUntil } from './virtual-steps.js';

/**
 * SIGHUP re-reads the config file of a running daemon: strategy params (the instance restarts with
 * them), risk limits and the log level change; the rest is reported. And a bearer token in the
 * environment guards everything but /healthz.
 */
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
const daemons: Daemon[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-reload-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
});
afterEach(async () => {
  for (const d of daemons.splice(0)) await d.stop();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

const STRATEGIES = `risk: { maxOpenOrders: 5 }
strategies:
  - id: brk-btc
    module: breakout
    symbols: [BTC-SWAP-USDT]
    params: { quantity: 1, windowMs: 20000 }
    risk: { maxOpenOrders: 3 }
`;

function edit(file: string, changes: ReadonlyArray<readonly [string, string]>): void {
  let text = readFileSync(file, 'utf8');
  for (const [from, to] of changes) {
    if (!text.includes(from)) throw new Error(`the config has no ${from}`);
    text = text.replace(from, to);
  }
  writeFileSync(file, text);
}

function sinkLogger(): PinoLogger {
  const sink = new Writable({
    write(_chunk: Buffer, _enc, done) {
      done();
    },
  });
  return createLogger({ level: 'silent', destination: sink });
}

describe('SIGHUP reloads the configuration', () => {
  it('params restart the instance, limits and log level change at once, fixed sections are reported; a broken file changes nothing', async () => {
    const file = writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state')) + STRATEGIES);
    const env: Environment = liveEnv(s);
    const prepared = await prepareRun({ config: file }, env);
    if (!prepared.ok) throw prepared.error;
    const probe = new Probe('probe', [BTC]);
    const hangup = new EventEmitter();
    const logger = sinkLogger();
    const started = await Daemon.start({ config: prepared.value.config, strategies: [...prepared.value.strategies, probe.instance()], time: clock, logger, env, hangup });
    if (!started.ok) throw started.error;
    const d = started.value;
    daemons.push(d);
    const bus = new BusRecorder(d);
    await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');

    edit(file, [
      ['windowMs: 20000', 'windowMs: 45000'],
      ['risk: { maxOpenOrders: 5 }', 'risk: { maxOpenOrders: 1 }'],
      ['    risk: { maxOpenOrders: 3 }', '    risk: { maxOpenOrders: 2 }'],
      ['log: { level: silent }', 'log: { level: warn }'],
      ['bookTicker: { every: 1s }', 'bookTicker: { every: 2s }'],
      ['health: { host: 127.0.0.1, port: 0 }', 'health: { host: 127.0.0.1, port: 9555 }'],
    ]);
    hangup.emit('SIGHUP', 'SIGHUP');
    await waitFor(() => d.status().reload !== null, 'the reload');
    const report = d.status().reload;
    expect(report).toEqual({
      at: clock.now(),
      ok: true,
      applied: ['risk', 'log.level', 'strategies[brk-btc].params', 'strategies[brk-btc].risk'],
      rejected: [
        { path: 'market', reason: 'needs a restart' },
        { path: 'health', reason: 'needs a restart' },
      ],
    });
    // The instance was stopped and started again, with the new params.
    expect(bus.of('strategy.stopped').map((e) => e.strategyId)).toEqual(['brk-btc']);
    expect(d.kernel.strategies.state('brk-btc')).toBe('running');
    const brk = d.status().strategies.find((st) => st.id === 'brk-btc');
    expect(brk?.params).toMatchObject({ windowMs: 45000 });
    expect(brk?.limits.maxOpenOrders).toBe(2);
    expect(logger.level).toBe('warn');
    // The global limit is in force: the second resting order would make two open orders.
    const mid = d.kernel.cache.midPrice(BTC) ?? dec(0);
    for (const key of ['g-1', 'g-2']) probe.emit({ type: 'place', key, symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95').toDecimalPlaces(1), quantity: dec(1) });
    expect(probe.of('intent.denied').map((e) => [e.denial.code, e.denial.message])).toEqual([['MAX_OPEN_ORDERS', 'global max open orders 1 reached']]);
    // Unchanged: the market channels and the health address.
    expect(d.health.url).not.toContain(':9555');

    // A broken file: the running configuration stays, the error is reported.
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nrisk: [`);
    const failed = await stratd(['reload', '--url', d.health.url], { STRATD_HEALTH_TOKEN: readFileSync(join(dir, 'state', 'control.token'), 'utf8') });
    expect(failed.code).toBe(1);
    const body = jsonOf(failed)['reload'] as { ok: boolean; error: string };
    expect(body.ok).toBe(false);
    expect(body.error).toContain(`${file}:`);
    expect(d.status().lastErrors['reload']?.message).toBe(body.error);
    expect(d.status().strategies.find((st) => st.id === 'brk-btc')?.params).toMatchObject({ windowMs: 45000 });
    expect(logger.level).toBe('warn');

    // Back to the first file: everything that changed changes back.
    writeFileSync(file, liveYaml(join(dir, 'state')) + STRATEGIES);
    const again = await stratd(['reload', '--url', d.health.url, '--config', file]);
    expect(again.code).toBe(0);
    expect(jsonOf(again)['reload']).toMatchObject({ ok: true, applied: ['risk', 'log.level', 'strategies[brk-btc].params', 'strategies[brk-btc].risk'], rejected: [] });
    expect(logger.level).toBe('silent');
  });

  it('a daemon stopped meanwhile no longer reloads', async () => {
    const hangup = new EventEmitter();
    const file = writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state')));
    const prepared = await prepareRun({ config: file }, liveEnv(s));
    if (!prepared.ok) throw prepared.error;
    const started = await Daemon.start({ config: prepared.value.config, strategies: [], time: clock, logger: sinkLogger(), env: liveEnv(s), hangup });
    if (!started.ok) throw started.error;
    expect(hangup.listenerCount('SIGHUP')).toBe(1);
    await started.value.stop();
    expect(hangup.listenerCount('SIGHUP')).toBe(0);
    expect((await started.value.reload()).error).toBe('the daemon is stopping');
  });
});

describe('a bearer token in STRATD_HEALTH_TOKEN', () => {
  const TOKEN = 'token-for-the-control-endpoint';

  it('replaces the state directory\'s token: it guards /status and control (not /healthz, nor /readyz and /metrics on loopback); the control commands send it from the environment', async () => {
    const env = { ...liveEnv(s), STRATD_HEALTH_TOKEN: TOKEN };
    const prepared = await prepareRun({ config: writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state'))) }, env);
    if (!prepared.ok) throw prepared.error;
    const started = await Daemon.start({ config: prepared.value.config, strategies: [], time: clock, logger: sinkLogger(), env, hangup: null });
    if (!started.ok) throw started.error;
    const d = started.value;
    daemons.push(d);
    expect(existsSync(join(dir, 'state', 'control.token'))).toBe(false);
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await fetch(`${d.health.url}${path}`)).status).toBe(200);
    expect((await fetch(`${d.health.url}/status`)).status).toBe(401);
    expect((await fetch(`${d.health.url}/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);

    const refused = await stratd(['halt', '--url', d.health.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('STRATD_HEALTH_TOKEN');
    expect(d.kernel.risk.killSwitch.engaged).toBe(false);

    const halted = await stratd(['halt', '--url', d.health.url], { STRATD_HEALTH_TOKEN: TOKEN });
    expect(jsonOf(halted)).toMatchObject({ killSwitch: { engaged: true, reason: 'halted by operator' } });
    expect(d.kernel.risk.killSwitch).toMatchObject({ engaged: true, reason: 'halted by operator' });
  });
});
