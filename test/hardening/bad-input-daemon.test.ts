import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../src/app/daemon/daemon.js';
import type { Decimal } from '../../src/core/decimal.js';
import { dec } from '../../src/core/decimal.js';
import type { VirtualClock } from '../../src/core/virtual-time.js';
import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import { expectViewsAgree } from '../app/daemon/account-views.js';
import { liveEnv, liveYaml, startDaemon, writeConfig } from '../app/daemon/daemon-harness.js';
import { parseMetrics, sample } from '../app/daemon/metrics-scrape.js';
import { Probe } from '../app/daemon/probe-strategy.js';
import { runFor, runUntil } from '../app/daemon/virtual-steps.js';
import type { RunningSim } from '../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim, value } from '../sim/e2e/sim-harness.js';
import { setFaults } from '../venue/port/admin-faults.js';

/**
 * Issue 8, the daemon goes on: the real simulator answers a share of REST requests with garbage (JSON cut
 * short, values of the wrong type, a 1 MiB payload of the wrong shape, text that is not JSON) and corrupts
 * a share of user-stream events, while a strategy places, cancels and fills orders. Garbage replies follow
 * the lost-reply rule: the request was executed, the daemon settles it by query. Afterwards the daemon
 * still runs, nothing was left unhandled, its open orders and positions are the exchange's, and no client
 * order id exists twice on the exchange.
 */
const GARBAGE_RATE = 0.3;
const GARBAGE_STRETCH_MS = MINUTE;

let dir: string;
let s: RunningSim;
let clock: VirtualClock;
let daemon: Daemon | undefined;
let probe: Probe;
let trader: ExchangeClient;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-garbage-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
  trader = s.client('trader', { recvWindowMs: 60_000 });
  probe = new Probe('probe', [BTC]);
  daemon = await startDaemon(writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state'), { timeoutMs: 1000 })), clock, [probe.instance()], liveEnv(s));
  const d = daemon;
  await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
});
afterEach(async () => {
  await setFaults(s, { garbageRate: 0 });
  await daemon?.stop();
  daemon = undefined;
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

function running(): Daemon {
  if (daemon === undefined) throw new Error('no daemon');
  return daemon;
}

/** The simulator's count of one injected fault kind. */
async function injected(kind: string): Promise<number> {
  const text = await (await fetch(`${s.sim.address.baseUrl}/metrics`)).text();
  return sample(parseMetrics(text), 'stratd_sim_faults_injected_total', { kind }) ?? 0;
}

/** Every order the exchange holds for the trader on BTC (open and finished), by exchange order id. */
async function exchangeOrders(): Promise<Array<{ readonly orderId: string; readonly clientOrderId: string }>> {
  const rows = [...value(await trader.ordersV2.openOrders({ symbol: BTC })), ...value(await trader.ordersV2.historyOrders({ symbol: BTC, limit: 1000 }))];
  return [...new Map(rows.map((o) => [o.orderId, { orderId: o.orderId, clientOrderId: o.clientOrderId }])).values()];
}

describe('the daemon and garbage from the exchange', () => {
  it('garbage replies and stream frames for a minute of trading: the daemon goes on and ends in line with the exchange', async () => {
    const d = running();
    const mid = (): Decimal => d.kernel.cache.midPrice(BTC) ?? dec(0);
    await setFaults(s, { garbageRate: GARBAGE_RATE });
    const resting: string[] = [];
    // Every 2 s: a resting buy far below the market; every third time a market buy (fills, a position);
    // every second time a cancel of the oldest resting order the daemon sees open (fewer than 20 stay
    // open: one page of the exchange's open orders, as the comparison reads them).
    for (let n = 0; n * 2000 < GARBAGE_STRETCH_MS; n++) {
      const key = `g-${n}`;
      probe.emit({ type: 'place', key, symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid().mul('0.95'), quantity: dec(1) });
      resting.push(probe.clientOrderId(key));
      if (n % 3 === 2) probe.emit({ type: 'place', key: `m-${n}`, symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(1) });
      if (n % 2 === 1) {
        const open = resting.find((id) => d.kernel.cache.order(id)?.status === 'NEW');
        if (open !== undefined) probe.emit({ type: 'cancel', clientOrderId: open });
      }
      await runFor(clock, 2000);
    }
    await setFaults(s, { garbageRate: 0 });
    expect(await injected('garbage')).toBeGreaterThan(0);
    expect(await injected('stream_garbage')).toBeGreaterThan(0);

    // Things settle: every command's outcome is known, then a reconciliation (the scheduled job, run by hand)
    // brings in what garbled stream events did not tell.
    await runUntil(clock, () => d.kernel.executor.pendingCount() === 0, 'every command settled', { stepMs: 250, maxMs: 10 * MINUTE });
    let reconciled = false;
    void d.runJob('reconcile').then((outcome) => {
      expect(outcome.status).toBe('ok');
      reconciled = true;
    });
    await runUntil(clock, () => reconciled, 'the reconciliation', { stepMs: 100 });

    expect(d.kernel.state).toBe('running');
    expect((await fetch(`${d.health.url}/healthz`)).status).toBe(200);
    expect(unhandled).toEqual([]);
    await expectViewsAgree(d, trader);

    // Never sent twice: each client order id names at most one order on the exchange.
    const orders = await exchangeOrders();
    const perId = new Map<string, number>();
    for (const o of orders) perId.set(o.clientOrderId, (perId.get(o.clientOrderId) ?? 0) + 1);
    expect([...perId.entries()].filter(([, count]) => count > 1)).toEqual([]);
    expect(orders.filter((o) => o.clientOrderId.startsWith('probe-')).length).toBeGreaterThan(10);
  }, 180_000);
});
