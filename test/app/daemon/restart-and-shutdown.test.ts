import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import type { Decimal } from '../../../src/core/decimal.js';
import { dec } from '../../../src/core/decimal.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { Intent } from '../../../src/model/intents.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim, value } from '../../sim/e2e/sim-harness.js';
import { requestCount, setFaults } from '../../venue/port/admin-faults.js';
import { waitFor } from '../../venue/stream/session-harness.js';
import { expectViewsAgree } from './account-views.js';
import { liveEnv, liveYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { Probe } from './probe-strategy.js';
import { runFor, runUntil } from './virtual-steps.js';

/**
 * Restart and shutdown against one simulator that outlives the daemons (live mode: URLs and keys
 * from the environment). A restarted daemon adopts the orders its predecessor left and sends nothing
 * twice; a clean stop with cancelOpenOrders leaves nothing open and closes the health server.
 */
const PLACE_ROUTE = 'POST /api/v2/futures/order';
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
let trader: ExchangeClient;
const daemons: Daemon[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-restart-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
  trader = s.client('trader', { recvWindowMs: 60_000 });
});
afterEach(async () => {
  await setFaults(s, { lostReplyRate: 0, wsDropRate: 0 });
  for (const d of daemons.splice(0)) await d.stop();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(file: string, probe: Probe): Promise<Daemon> {
  const d = await startDaemon(file, clock, [probe.instance()], liveEnv(s));
  daemons.push(d);
  return d;
}

/** The exchange's mid price now (read by the test: a strategy placing at start has no market data yet). */
async function exchangeMid(): Promise<Decimal> {
  const [book] = value(await trader.market.contractBookTicker(BTC));
  if (book === undefined) throw new Error('no book ticker');
  return book.bidPrice.add(book.askPrice).div(2);
}

/** Two quotes far from the market, keyed: a strategy that places them at every start. */
function quotes(mid: Decimal): Intent[] {
  return [
    { type: 'place', key: 'keep-bid', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95'), quantity: dec(1) },
    { type: 'place', key: 'keep-ask', symbol: BTC, side: 'SELL', orderType: 'LIMIT', price: mid.mul('1.05'), quantity: dec(2) },
  ];
}

describe('daemon restart', () => {
  it('a second daemon on the same state dir and exchange adopts the open orders; the strategy’s re-emitted intents are not sent again', async () => {
    const file = writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state')));
    const intents = quotes(await exchangeMid());
    const probeA = new Probe('keeper', [BTC], intents);
    const a = await start(file, probeA);
    const ids = [probeA.clientOrderId('keep-bid'), probeA.clientOrderId('keep-ask')];
    await runUntil(clock, () => ids.every((id) => a.kernel.cache.order(id)?.status === 'NEW'), 'both quotes open');
    await a.stop();
    expect(a.kernel.state).toBe('stopped');
    // shutdown.cancelOpenOrders is false: the quotes stay on the exchange.
    const left = value(await trader.ordersV2.openOrders({ symbol: BTC }));
    expect(left.map((o) => o.clientOrderId).sort()).toEqual([...ids].sort());
    // While no daemon runs, someone else places an order.
    const manualPrice = (await exchangeMid()).mul('0.9').toDecimalPlaces(1);
    value(await trader.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: manualPrice, quantity: dec(1), newClientOrderId: 'manual-restart' }));
    const sent = await requestCount(s, PLACE_ROUTE);

    const probeB = new Probe('keeper', [BTC], intents);
    const b = await start(file, probeB);
    await runFor(clock, 10_000);
    // Nothing was placed again: the first daemon journaled the keys, and the orders are live.
    expect(await requestCount(s, PLACE_ROUTE)).toBe(sent);
    expect(probeB.of('command.failed')).toEqual([]);
    expect(probeB.of('command.submitted')).toEqual([]);
    // The risk engine knows the keys name live orders of this strategy again (adopted from the journal).
    expect(probeB.of('intent.denied').map((e) => e.denial.code)).toEqual(['DUPLICATE_KEY', 'DUPLICATE_KEY']);
    const onExchange = value(await trader.ordersV2.openOrders({ symbol: BTC }));
    expect(onExchange.map((o) => o.clientOrderId).sort()).toEqual([...ids, 'manual-restart'].sort());
    await expectViewsAgree(b, trader);
    // Its own orders are the strategy's again; the stranger's is adopted as external.
    for (const id of ids) expect(b.kernel.executor.ownerOf(id)).toBe('keeper');
    expect(b.kernel.executor.ownerOf('manual-restart')).toBe('external');
    expect(probeB.ctx.openOrders().map((o) => o.clientOrderId).sort()).toEqual([...ids].sort());
    expect(b.kernel.lastReconcile).toMatchObject({ ok: true });
  });

  it('an order whose reply was lost when the first daemon stopped is settled from the journal by the second: one order, owned by its strategy', async () => {
    const file = writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state'), { timeoutMs: 1000 }));
    const mid = await exchangeMid();
    const probeA = new Probe('keeper', [BTC]);
    const a = await start(file, probeA);
    // The stream goes first (dropped after the event of a first order), so that it cannot tell the outcome either.
    await setFaults(s, { wsDropRate: 1 });
    probeA.emit({ type: 'place', key: 'before', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.94'), quantity: dec(1) });
    const before = probeA.clientOrderId('before');
    await waitFor(() => probeA.of('stream.disconnected').length > 0, 'the stream to drop');
    await setFaults(s, { wsDropRate: 0 });
    const sent = await requestCount(s, PLACE_ROUTE);
    await setFaults(s, { lostReplyRate: 1 });
    probeA.emit({ type: 'place', key: 'crash-1', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95'), quantity: dec(1) });
    const id = probeA.clientOrderId('crash-1');
    await waitFor(() => s.sim.http.heldCount === 1, 'the order executed, its reply held');
    await setFaults(s, { lostReplyRate: 0 });
    // Stopped before the settling query (virtual time stands still): the journal holds an unknown outcome.
    await a.stop();
    expect(a.kernel.executor.tracked(id)?.phase).toBe('unknown');
    expect(a.kernel.cache.order(id)).toBeUndefined();

    const probeB = new Probe('keeper', [BTC]);
    const b = await start(file, probeB);
    expect(b.kernel.cache.order(id)?.status).toBe('NEW');
    expect(b.kernel.executor.ownerOf(id)).toBe('keeper');
    expect(b.kernel.executor.pendingCount()).toBe(0);
    expect(b.kernel.lastReconcile).toMatchObject({ ok: true });
    await runFor(clock, 10_000);
    expect(await requestCount(s, PLACE_ROUTE)).toBe(sent + 1);
    expect(value(await trader.ordersV2.openOrders({ symbol: BTC })).map((o) => o.clientOrderId).sort()).toEqual([before, id].sort());
    expect(b.kernel.executor.ownerOf(before)).toBe('keeper');
    await expectViewsAgree(b, trader);
  });
});

describe('daemon shutdown', () => {
  it('stop() with shutdown.cancelOpenOrders: nothing stays open on the exchange, the health server is closed, a second stop() is a no-op', async () => {
    const file = writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state'), { cancelOpenOrders: true }));
    const probe = new Probe('closer', [BTC], quotes(await exchangeMid()));
    const d = await start(file, probe);
    const ids = [probe.clientOrderId('keep-bid'), probe.clientOrderId('keep-ask')];
    await runUntil(clock, () => ids.every((id) => d.kernel.cache.order(id)?.status === 'NEW'), 'both quotes open');
    expect((await fetch(`${d.health.url}/healthz`)).status).toBe(200);

    await d.stop();
    expect(d.kernel.state).toBe('stopped');
    expect(value(await trader.ordersV2.openOrders({}))).toEqual([]);
    for (const id of ids) expect(value(await trader.ordersV2.getOrder({ origClientOrderId: id })).status).toBe('CANCELED');
    await expect(fetch(`${d.health.url}/healthz`)).rejects.toThrow();
    await d.stop();
  });
});
