import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { dec } from '../../../src/core/decimal.js';
import type { VirtualClock } from '../../../src/core/virtual-time.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, ETH, MINUTE, startSim, value } from '../../sim/e2e/sim-harness.js';
import { setFaults } from '../../venue/port/admin-faults.js';
import { waitFor } from '../../venue/stream/session-harness.js';
import type { PositionRow } from './account-views.js';
import { cacheView, expectViewsAgree } from './account-views.js';
import { BusRecorder } from './bus-recorder.js';
import { liveEnv, liveYaml, startDaemon, writeConfig } from './daemon-harness.js';
import { sample, scrape } from './metrics-scrape.js';
import { Probe } from './probe-strategy.js';
import { runUntil } from './virtual-steps.js';

/**
 * The user data stream lost under the running daemon (socket dropped by the server, listen key
 * expired): the session reconnects with a new epoch, the kernel reconciles over REST, and the cache's
 * open orders and positions equal the exchange's, including what changed while the stream was down.
 */
let dir: string;
let s: RunningSim;
let clock: VirtualClock;
let daemon: Daemon | undefined;
let bus: BusRecorder;
let probe: Probe;
let trader: ExchangeClient;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-daemon-stream-'));
  s = await startSim({ warmupMs: MINUTE });
  clock = s.clock;
  trader = s.client('trader', { recvWindowMs: 60_000 });
  probe = new Probe('probe', [BTC]);
  daemon = await startDaemon(writeConfig(dir, 'live.yml', liveYaml(join(dir, 'state'))), clock, [probe.instance()], liveEnv(s));
  const d = daemon;
  bus = new BusRecorder(d);
  await runUntil(clock, () => d.kernel.cache.midPrice(BTC) !== undefined && d.kernel.cache.markPrice(BTC) !== undefined, 'market data');
});
afterEach(async () => {
  bus.stop();
  await setFaults(s, { wsDropRate: 0, http5xxRate: 0, listenKeyTtlMs: 3_600_000 });
  await daemon?.stop();
  daemon = undefined;
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

function running(): Daemon {
  if (daemon === undefined) throw new Error('no daemon');
  return daemon;
}

/** The probe places a BUY far below the market (it rests); answers its client order id. */
function restingBuy(key: string): string {
  const mid = running().kernel.cache.midPrice(BTC) ?? dec(0);
  probe.emit({ type: 'place', key, symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: mid.mul('0.95'), quantity: dec(1) });
  return probe.clientOrderId(key);
}

/** `restingBuy`, resolved once the cache shows the order open. */
async function probeRests(key: string): Promise<string> {
  const d = running();
  const id = restingBuy(key);
  await runUntil(clock, () => d.kernel.cache.order(id)?.status === 'NEW', `order ${id} open in the cache`, { stepMs: 100 });
  return id;
}

/**
 * What happens on the account while the daemon's stream is down (virtual time stands still, so the
 * session is still waiting to reconnect): an order of someone else's, a position change, and one of
 * the strategy's orders cancelled behind its back. Answers the external order's client id.
 */
async function changeBehindTheDaemon(strategyOrder: string, tag: string): Promise<string> {
  const mid = running().kernel.cache.midPrice(ETH) ?? dec(0);
  const external = `manual-${tag}`;
  value(await trader.ordersV2.placeOrder({ symbol: ETH, side: 'SELL', positionSide: 'SHORT', type: 'LIMIT', price: mid.mul('1.05').toDecimalPlaces(2), quantity: dec(3), newClientOrderId: external }));
  value(await trader.ordersV2.placeOrder({ symbol: ETH, side: 'BUY', positionSide: 'LONG', type: 'MARKET', quantity: dec(4), newClientOrderId: `manual-${tag}-mkt` }));
  value(await trader.ordersV2.cancelOrder({ origClientOrderId: strategyOrder }));
  return external;
}

/** After the resync of `epoch`: local open orders and positions are the exchange's, and the changes are in. */
async function expectReconciled(epoch: number, cancelled: string, external: string, more: readonly PositionRow[] = []): Promise<void> {
  const d = running();
  await runUntil(clock, () => bus.of('account.resynced').some((e) => e.epoch === epoch), `the resync of epoch ${epoch}`, { stepMs: 100 });
  expect(bus.of('stream.connected').map((e) => e.epoch)).toEqual([epoch]);
  await expectViewsAgree(d, trader);
  const view = cacheView(d);
  expect(view.orders.map((o) => o.clientOrderId)).toContain(external);
  expect(view.orders.map((o) => o.clientOrderId)).not.toContain(cancelled);
  expect(view.positions).toEqual([...more, { symbol: ETH, positionSide: 'LONG', qty: '4' }]);
  expect(d.kernel.cache.order(cancelled)?.status).toBe('CANCELED');
  // The order nobody here placed is adopted (orphans: adopt), not cancelled.
  expect(d.kernel.executor.ownerOf(external)).toBe('external');
  expect(bus.of('account.resynced').find((e) => e.epoch === epoch)).toMatchObject({ adopted: 1, cancelled: 0 });
  expect(d.kernel.lastReconcile).toMatchObject({ ok: true });
}

describe('the daemon recovers its user data stream', () => {
  it('a socket dropped by the server: reconnect with a new epoch, reconcile, local orders and positions equal the exchange’s', async () => {
    const d = running();
    const first = await probeRests('ws-1');
    await setFaults(s, { wsDropRate: 1 });
    // The next stream event (this order's) is followed by a dropped socket. Virtual time stands still
    // until the fault is off again: the session waits to reconnect.
    const second = restingBuy('ws-2');
    await waitFor(() => bus.of('stream.disconnected').length > 0 && d.kernel.cache.order(second)?.status === 'NEW', 'the drop and the order’s reply');
    await setFaults(s, { wsDropRate: 0 });
    expect(bus.of('stream.connected')).toEqual([]);
    const external = await changeBehindTheDaemon(first, 'ws');
    // The strategy trades while the stream is down: the REST reply tells the order, not its fills.
    probe.emit({ type: 'place', key: 'ws-mkt', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: dec(3) });
    const market = probe.clientOrderId('ws-mkt');
    await waitFor(() => d.kernel.cache.order(market)?.status === 'FILLED', 'the market order’s reply');

    await expectReconciled(2, first, external, [{ symbol: BTC, positionSide: 'LONG', qty: '3' }]);
    expect(d.kernel.cache.order(second)?.status).toBe('NEW');
    // The fills missed meanwhile are replayed to the strategy and counted, once each.
    const orderId = d.kernel.cache.order(market)?.orderId;
    const trades = value(await trader.ordersV2.userTrades({ symbol: BTC })).filter((t) => t.orderId === orderId);
    const fills = probe.of('account.fill').filter((e) => e.fill.clientOrderId === market);
    expect(fills.map((e) => e.fill.tradeId).sort()).toEqual(trades.map((t) => t.ticketId ?? t.id).sort());
    expect(sample(await scrape(d.health.url), 'stratd_fills_total', { strategy: 'probe', symbol: BTC })).toBe(trades.length);
    // The strategy learnt of the reconnect and of its order cancelled meanwhile.
    expect(probe.of('account.resynced').map((e) => e.epoch)).toEqual([2]);
    expect(probe.of('account.order').some((e) => e.order.clientOrderId === first && e.order.status === 'CANCELED')).toBe(true);
  });

  it('an expired listen key (keepalives failing until it runs out): a new key, a reconnect, orders placed meanwhile reconciled', async () => {
    const d = running();
    const first = await probeRests('lk-1');
    // A 2-minute validity from now on (POST extends the account's key, the daemon's), then every REST call fails.
    await setFaults(s, { listenKeyTtlMs: 2 * MINUTE });
    const oldKey = value(await trader.userStream.createListenKey());
    await setFaults(s, { http5xxRate: 1 });
    await runUntil(clock, () => bus.of('stream.disconnected').length > 0, 'the expiry', { stepMs: 1000, maxMs: 5 * MINUTE });
    expect(bus.of('stream.disconnected').map((e) => e.reason)).toEqual([expect.stringContaining('listenKey expired')]);
    await setFaults(s, { http5xxRate: 0, listenKeyTtlMs: 3_600_000 });
    expect(bus.of('stream.connected')).toEqual([]);

    // Orders placed while the stream is down: the strategy's (REST replies only) and someone else's.
    const external = await changeBehindTheDaemon(first, 'lk');
    const meanwhile = await probeRests('lk-2');

    await expectReconciled(2, first, external);
    expect(d.kernel.cache.order(meanwhile)?.status).toBe('NEW');
    const newKey = value(await trader.userStream.createListenKey());
    expect(newKey).not.toBe(oldKey);
  });
});
