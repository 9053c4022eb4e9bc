import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Daemon } from '../../../src/app/daemon/daemon.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import type { Decimal } from '../../../src/core/decimal.js';
import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { Intent } from '../../../src/model/intents.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim, value } from '../../sim/e2e/sim-harness.js';
import { liveEnv, liveYaml, writeConfig } from './daemon-harness.js';
import { Probe } from './probe-strategy.js';
import { runUntil } from './virtual-steps.js';

/**
 * A power cut inside the journal's fsync window loses its last entries while the exchange has the
 * orders. The test stands in for one: the state directory is put back to a copy taken before three
 * orders were sent. On the next start the exchange's recent orders are matched with the journal: a
 * keyed intent whose order finished fails as DUPLICATE instead of placing it again, and an unkeyed one
 * gets a new id instead of the id of an order already open.
 */
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
let trader: ExchangeClient;
const daemons: Daemon[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-journal-tail-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
  trader = s.client('trader', { recvWindowMs: 60_000 });
});
afterEach(async () => {
  for (const d of daemons.splice(0)) await d.stop();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(stateDir: string, probe: Probe): Promise<Daemon> {
  const file = writeConfig(dir, `${probe.id}-${daemons.length}.yml`, liveYaml(stateDir));
  const env = liveEnv(s);
  const prepared = await prepareRun({ config: file }, env);
  if (!prepared.ok) throw prepared.error;
  const started = await Daemon.start({
    config: prepared.value.config,
    strategies: [...prepared.value.strategies, probe.instance()],
    time: clock,
    logger: silentLogger,
    env,
    hangup: null,
    stateStore: { newNamespace: () => 'aaaaa' },
  });
  if (!started.ok) throw started.error;
  daemons.push(started.value);
  return started.value;
}

async function stop(daemon: Daemon): Promise<void> {
  daemons.splice(daemons.indexOf(daemon), 1);
  await daemon.stop();
}

async function exchangeMid(): Promise<Decimal> {
  const [book] = value(await trader.market.contractBookTicker(BTC));
  if (book === undefined) throw new Error('no book ticker');
  return book.bidPrice.add(book.askPrice).div(2);
}

/** Every client order id the account has, open and finished (an id twice: an order placed twice). */
async function accountIds(): Promise<string[]> {
  const open = value(await trader.ordersV2.openOrders({ limit: 1000 }));
  const history = value(await trader.ordersV2.historyOrders({ limit: 1000 }));
  return [...open, ...history].map((o) => o.clientOrderId);
}

describe('journal entries lost to a power cut', () => {
  it('are recovered from the exchange before anything trades: nothing is placed twice and no new order is dropped', async () => {
    const stateDir = join(dir, 'state');
    const backup = join(dir, 'state-before-orders');
    await stop(await start(stateDir, new Probe('quoter', [BTC])));
    cpSync(stateDir, backup, { recursive: true });

    const mid = await exchangeMid();
    const intents: Intent[] = [
      { type: 'place', key: 'q1', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95'), quantity: dec(1) },
      { type: 'place', key: 'q2', symbol: BTC, side: 'SELL', orderType: 'LIMIT', price: mid.mul('1.05'), quantity: dec(1) },
      { type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.94'), quantity: dec(1) },
    ];
    const first = new Probe('quoter', [BTC], intents);
    const a = await start(stateDir, first);
    await runUntil(clock, () => a.kernel.cache.openOrders().length === 3, 'three orders open');
    const q1 = first.clientOrderId('q1');
    const q2 = first.clientOrderId('q2');
    const unkeyed = (await accountIds()).find((id) => id !== q1 && id !== q2);
    expect(unkeyed).toBe('quoter-aaaaa-1');
    // q2 finishes while the daemon is down; q1 and the unkeyed order stay open.
    await stop(a);
    value(await trader.ordersV2.cancelOrder({ origClientOrderId: q2 }));

    // The power cut: the journal is back to before the three orders.
    rmSync(stateDir, { recursive: true, force: true });
    cpSync(backup, stateDir, { recursive: true });

    const second = new Probe('quoter', [BTC], intents);
    const b = await start(stateDir, second);
    await runUntil(clock, () => b.kernel.cache.openOrders().length === 3 && second.of('command.failed').length === 1, 'the restarted state’s orders settled');

    const ids = await accountIds();
    expect(ids.filter((id) => id === q2)).toHaveLength(1);
    expect(ids.filter((id) => id === q1)).toHaveLength(1);
    expect(ids.filter((id) => id === 'quoter-aaaaa-1')).toHaveLength(1);
    expect(ids).toContain('quoter-aaaaa-2');
    expect(ids).toHaveLength(4);
    const failed = second.of('command.failed');
    expect(failed.map((e) => [e.failure.code, e.command.type === 'place-order' ? e.command.clientOrderId : undefined])).toEqual([['DUPLICATE', q2]]);
    await stop(b);

    const reopened = StateStore.open(stateDir);
    if (!reopened.ok) throw reopened.error;
    expect(reopened.value.journal().get(q2)).toMatchObject({ state: 'done', strategyId: 'quoter' });
    reopened.value.close();
  });
});
