import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { dec } from '../../../src/core/decimal.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, failure, MINUTE, startSim, value } from '../../sim/e2e/sim-harness.js';
import { requestCount, setFaults } from '../../venue/port/admin-faults.js';
import { waitFor } from '../../venue/stream/session-harness.js';
import { liveEnv, liveYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { Probe } from './probe-strategy.js';
import { runFor, runUntil } from './virtual-steps.js';

/**
 * Order requests whose reply never comes or comes back 5xx, injected by the simulator's admin
 * endpoint: the daemon settles each by querying its client order id and never sends it again. A live
 * config points the daemon at a simulator of the test's own (its request timeout is 1 s of real time).
 */
const PLACE_ROUTE = 'POST /api/v2/futures/order';
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
let daemon: Daemon | undefined;
let probe: Probe;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-faults-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
  probe = new Probe('probe', [BTC]);
  daemon = await startDaemon(writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state'), { timeoutMs: 1000 })), clock, [probe.instance()], liveEnv(s));
  const d = daemon;
  await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
});
afterEach(async () => {
  await setFaults(s, { lostReplyRate: 0, http5xxRate: 0 });
  await daemon?.stop();
  daemon = undefined;
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

function running(): Daemon {
  if (daemon === undefined) throw new Error('no daemon');
  return daemon;
}

/** A BUY far below the market: it rests, so the exchange's open orders show it. */
function restingBuy(key: string): void {
  const mid = running().kernel.cache.midPrice(BTC) ?? dec(0);
  probe.emit({ type: 'place', key, symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95'), quantity: dec(1) });
}

describe('the daemon and lost order replies', () => {
  it('executed but never answered: the order is settled by query as accepted, and exactly one exists on the exchange', async () => {
    const d = running();
    const before = await requestCount(s, PLACE_ROUTE);
    // Virtual time stands still while the fault is on: the order is the only request that meets it.
    await setFaults(s, { lostReplyRate: 1 });
    restingBuy('lost-1');
    const id = probe.clientOrderId('lost-1');
    await waitFor(() => s.sim.http.heldCount === 1, 'the simulator to execute the order and hold its reply');
    await setFaults(s, { lostReplyRate: 0 });
    // The client gives up after its timeout (real time); the executor then settles by query.
    await waitFor(() => d.kernel.executor.tracked(id)?.phase !== 'sent', 'the client to give up on the reply', 5000);
    await runUntil(clock, () => d.kernel.cache.order(id)?.status === 'NEW' && d.kernel.executor.pendingCount() === 0, 'the outcome settled', { stepMs: 100 });
    await runUntil(clock, () => probe.of('command.submitted').length === 1, 'the acceptance at the strategy', { stepMs: 100 });

    const trader = s.client('trader');
    const open = value(await trader.ordersV2.openOrders({ symbol: BTC })).filter((o) => o.clientOrderId === id);
    expect(open).toHaveLength(1);
    expect(value(await trader.ordersV2.getOrder({ origClientOrderId: id })).orderId).toBe(open[0]?.orderId);
    expect(d.kernel.cache.order(id)?.orderId).toBe(open[0]?.orderId);
    // Sent once: never re-sent blind.
    expect((await requestCount(s, PLACE_ROUTE)) - before).toBe(1);
    expect(probe.of('command.failed')).toEqual([]);
    expect(probe.of('command.submitted').map((e) => e.command.type === 'place-order' && e.command.clientOrderId)).toEqual([id]);
  });

  it('answered 5xx and not executed: settled by query as never placed (command.failed NOT_FOUND), never re-sent', async () => {
    const d = running();
    const before = await requestCount(s, PLACE_ROUTE);
    await setFaults(s, { http5xxRate: 1 });
    restingBuy('five-1');
    const id = probe.clientOrderId('five-1');
    await waitFor(() => d.kernel.executor.tracked(id)?.phase === 'unknown', 'the 5xx to make the outcome unknown');
    await setFaults(s, { http5xxRate: 0 });
    await runUntil(clock, () => probe.of('command.failed').length > 0, 'the settled failure', { stepMs: 100 });

    const failed = probe.of('command.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ strategyId: 'probe', command: { type: 'place-order', clientOrderId: id }, failure: { kind: 'not-found', code: 'NOT_FOUND' } });
    expect(d.kernel.cache.order(id)).toBeUndefined();
    expect(d.kernel.executor.pendingCount()).toBe(0);
    const trader = s.client('trader');
    expect(failure(await trader.ordersV2.getOrder({ origClientOrderId: id }))).toMatchObject({ code: -2013 });
    // More virtual time passes: no retry of the order itself.
    await runFor(clock, 2 * MINUTE);
    expect((await requestCount(s, PLACE_ROUTE)) - before).toBe(1);
    expect(value(await trader.ordersV2.openOrders({ symbol: BTC })).filter((o) => o.clientOrderId === id)).toEqual([]);
  });
});
