import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DaemonStatus } from '../../../src/app/control/status.js';
import { Daemon } from '../../../src/app/daemon/daemon.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { Intent } from '../../../src/model/intents.js';
import type { OrderJournal } from '../../../src/model/journal.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim, value } from '../../sim/e2e/sim-harness.js';
import { FailingJournal } from '../../support/failing-journal.js';
import { liveEnv, liveYaml, writeConfig } from './daemon-harness.js';
import { sample, scrape } from './metrics-scrape.js';
import { Probe } from './probe-strategy.js';
import { runUntil } from './virtual-steps.js';

/**
 * A daemon whose journal cannot be written (the state directory's disk is full) says so from outside:
 * /readyz not ready with the reason, /status with the error, the metric at 0; and it trades again by
 * itself once writes succeed.
 */
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
let d: Daemon;
let probe: Probe;
let journal: FailingJournal | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-journal-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
  probe = new Probe('probe', [BTC]);
  const env = liveEnv(s);
  const prepared = await prepareRun({ config: writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state'))) }, env);
  if (!prepared.ok) throw prepared.error;
  const journalFaults = (inner: OrderJournal): OrderJournal => {
    journal = new FailingJournal(inner);
    return journal;
  };
  const started = await Daemon.start({ config: prepared.value.config, strategies: [probe.instance()], time: clock, logger: silentLogger, env, hangup: null, journalFaults });
  if (!started.ok) throw started.error;
  d = started.value;
  await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
});
afterEach(async () => {
  if (journal !== undefined) journal.failWith = undefined;
  await d.stop();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

function restingBuy(key: string): Intent {
  const mid = d.kernel.cache.midPrice(BTC) ?? dec(0);
  return { type: 'place', key, symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95').toDecimalPlaces(1), quantity: dec(1) };
}

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const token = readFileSync(join(dir, 'state', 'control.token'), 'utf8').trim();
  const reply = await fetch(`${d.health.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: reply.status, body: await reply.json() };
}

async function exchangeIds(): Promise<string[]> {
  return value(await s.client('trader', { recvWindowMs: 60_000 }).ordersV2.openOrders({ symbol: BTC })).map((o) => o.clientOrderId);
}

describe('a daemon whose journal cannot be written', () => {
  it('is not ready, shows the error in /status and the metric, sends nothing, and trades again once a write succeeds', async () => {
    if (journal === undefined) throw new Error('the daemon did not use the fault-injected journal');
    expect((await get('/readyz')).status).toBe(200);
    journal.failWith = 'SQLITE_FULL';
    probe.emit(restingBuy('b1'));
    await runUntil(clock, () => probe.of('command.failed').length === 1, 'the command.failed of the unjournaled order');
    expect(probe.of('command.failed')[0]?.failure.code).toBe('JOURNAL_UNAVAILABLE');

    const ready = await get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.stringify(ready.body)).toContain('the order journal cannot be written (SQLITE_FULL: database or disk is full)');
    const status = (await get('/status')).body as DaemonStatus;
    expect(status.components.journal).toMatchObject({ writable: false });
    expect(status.lastErrors['journal']?.message).toContain('SQLITE_FULL');
    expect(sample(await scrape(d.health.url), 'stratd_journal_writable', {})).toBe(0);
    expect(await exchangeIds()).toEqual([]);
    // Healthy all the same: the process works, it is waiting for its disk (no restart loop).
    expect((await get('/healthz')).status).toBe(200);

    journal.failWith = undefined;
    await runUntil(clock, () => d.kernel.executor.journalHealth.state.writable, 'the probe write');
    expect((await get('/readyz')).status).toBe(200);
    expect(sample(await scrape(d.health.url), 'stratd_journal_writable', {})).toBe(1);
    probe.emit(restingBuy('b2'));
    const id = probe.clientOrderId('b2');
    await runUntil(clock, () => d.kernel.cache.order(id)?.status === 'NEW', 'the order after recovery');
    expect(await exchangeIds()).toEqual([id]);
  });
});
