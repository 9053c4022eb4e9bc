import type { Subscription } from 'rxjs';
import { dec } from '../../../src/core/decimal.js';
import type { AccountEvent } from '../../../src/model/account-events.js';
import type { Intent } from '../../../src/model/intents.js';
import type { OrderView } from '../../../src/sim/engine/types.js';
import type { TestStrategy } from './kernel-support.js';
import { ACCOUNT, BTC, KernelRig, scripted, World } from './kernel-support.js';

/**
 * The orders our TP/SL rows create when they trigger belong to the row's strategy, and so do their fills,
 * even when the row's triggered event was lost and the order finished before a reconciliation: the
 * reconciliation finds the row (by query, or in the rows' history), adopts the order for the strategy and
 * moves the fill the ledgers had booked to `external` into the strategy's ledger.
 */
const entryWithStops: Intent = {
  type: 'place',
  key: 'entry',
  symbol: BTC,
  side: 'BUY',
  orderType: 'MARKET',
  quantity: dec(2),
  takeProfit: { triggerPrice: dec(103000) },
  stopLoss: { triggerPrice: dec(97000) },
};

/** The user stream as this process receives it: the engine's account events minus those `lost` drops. */
/** A kernel whose strategy alpha enters with a TP and an SL at start, running on a fresh world. */
async function startedWithStops(): Promise<{ readonly world: World; readonly alpha: TestStrategy; readonly rig: KernelRig }> {
  const world = new World();
  const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(entryWithStops) });
  const rig = new KernelRig(world, { strategies: [alpha], orphans: 'cancel' });
  await rig.start();
  return { world, alpha, rig };
}

function lossyStream(rig: KernelRig, world: World, lost: (event: AccountEvent) => boolean): Subscription {
  rig.disconnectStream();
  return world.port.accountEvents$.subscribe((event) => {
    if (!lost(event)) rig.kernel.ingest(event);
  });
}

/** The stop-loss at 97000 fires: the book drops below it and a trade prints through. */
async function stopLossFires(rig: KernelRig, world: World): Promise<OrderView> {
  world.book([['96000', '50']], [['96100', '50']]);
  world.trade('96900', '1', 'SELL');
  await rig.advance(1000);
  const child = world.allOrders().find((o) => o.sourceAlgoOrderId !== undefined);
  if (child === undefined) throw new Error('the stop-loss did not fire');
  expect(child.status).toBe('FILLED');
  return child;
}

function qtyOf(rig: KernelRig, owner: string): string | undefined {
  return rig.kernel.ledgers.position(owner, BTC, 'LONG')?.qty.toFixed();
}

/** The ledgers after the stop-loss: alpha's holding closed by its own fill, at its price; nothing on the external ledger. */
function expectClosedByOwnFill(rig: KernelRig, world: World, child: OrderView): void {
  expect(qtyOf(rig, 'alpha')).toBe('0');
  const trades = world.ex.userTrades(ACCOUNT, { symbol: BTC, limit: 100 }).filter((t) => t.orderId === child.orderId);
  expect(trades.length).toBeGreaterThan(0);
  const exchangePnl = trades.reduce((sum, t) => sum.add(t.realizedPnl), dec(0));
  const alpha = rig.kernel.ledgers.position('alpha', BTC, 'LONG');
  // Entry and exit both at the account's prices: the ledger's realized PnL is the exchange's for the closing fill.
  expect(alpha?.realizedPnl.toFixed()).toBe(exchangePnl.toFixed());
  const external = rig.kernel.ledgers.position('external', BTC, 'LONG');
  expect(external?.qty.toFixed() ?? '0').toBe('0');
  expect(external?.realizedPnl.toFixed() ?? '0').toBe('0');
  expect(external?.fees.toFixed() ?? '0').toBe('0');
  expect(rig.of('ledger.positionLost')).toEqual([]);
  // The order is journaled as alpha's and it reaches alpha.
  expect(rig.world.store.journal().get(child.clientOrderId)?.strategyId).toBe('alpha');
  expect(rig.kernel.executor.ownerOf(child.clientOrderId)).toBe('alpha');
}

/** alpha was given the fills of the order, once each (late, once the order was known to be its). */
function expectFillsDelivered(alpha: TestStrategy, world: World, child: OrderView): void {
  const trades = world.ex.userTrades(ACCOUNT, { symbol: BTC, limit: 100 }).filter((t) => t.orderId === child.orderId);
  const delivered = alpha.of('account.fill').filter((e) => e.fill.orderId === child.orderId);
  expect(delivered.map((e) => e.fill.clientOrderId)).toEqual(trades.map(() => child.clientOrderId));
}

describe('orders a TP/SL row created while its triggered event was lost', () => {
  test('the order was seen, the row’s trigger was not: after the reconciliation the fill is in alpha’s ledger, not external', async () => {
    const { world, alpha, rig } = await startedWithStops();
    expect(qtyOf(rig, 'alpha')).toBe('2');
    const stream = lossyStream(rig, world, (e) => e.type === 'account.algo' && e.order.status === 'ORDER_FILLED');

    const child = await stopLossFires(rig, world);
    // Until a reconciliation, nothing links the order to alpha: its fill went to external.
    expect(rig.kernel.executor.ownerOf(child.clientOrderId)).toBeUndefined();
    expect(qtyOf(rig, 'alpha')).toBe('2');

    const reconciled = await rig.kernel.reconcile(1);
    await rig.settle();
    expectClosedByOwnFill(rig, world, child);
    expectFillsDelivered(alpha, world, child);
    // The row was ours: its query named the order (waiting as a stray), no lookup was needed.
    expect(reconciled.ok && reconciled.value.triggered).toBe(0);
    expect(rig.faulty.count('fetchAlgoHistory')).toBe(0);
    stream.unsubscribe();
    await rig.stop(false);
  });

  test('the row’s trigger event comes after its order’s fill (reordered): the fill moves to alpha at once, no reconciliation needed', async () => {
    const { world, alpha, rig } = await startedWithStops();
    const late: AccountEvent[] = [];
    const stream = lossyStream(rig, world, (e) => {
      const held = e.type === 'account.algo' && e.order.status === 'ORDER_FILLED';
      if (held) late.push(e);
      return held;
    });
    const child = await stopLossFires(rig, world);
    expect(qtyOf(rig, 'alpha')).toBe('2');
    for (const event of late) rig.kernel.ingest(event);
    await rig.settle();
    expectClosedByOwnFill(rig, world, child);
    expectFillsDelivered(alpha, world, child);
    expect(rig.faulty.count('fetchAccount')).toBe(1);
    stream.unsubscribe();
    await rig.stop(false);
  });

  test('stream down while the row fired: the order and its fill come from REST; the order is fetched by id and adopted', async () => {
    const { world, alpha, rig } = await startedWithStops();
    expect(qtyOf(rig, 'alpha')).toBe('2');
    rig.disconnectStream();

    const child = await stopLossFires(rig, world);
    rig.connectStream();
    const reconciled = await rig.kernel.reconcile(1);
    if (!reconciled.ok) throw new Error(reconciled.error.message);
    await rig.settle();
    expectClosedByOwnFill(rig, world, child);
    expectFillsDelivered(alpha, world, child);
    expect(reconciled.value.triggered).toBe(1);
    expect(rig.faulty.count('queryOrderById')).toBe(1);
    // alpha heard of its order's end.
    expect(alpha.of('account.order').some((e) => e.order.clientOrderId === child.clientOrderId && e.order.status === 'FILLED')).toBe(true);

    // Nothing unattributed is left: the next reconciliation makes no lookups.
    const calls = rig.faulty.count('fetchAlgoHistory') + rig.faulty.count('queryOrderById');
    await rig.kernel.reconcile(2);
    await rig.settle();
    expect(rig.faulty.count('fetchAlgoHistory') + rig.faulty.count('queryOrderById')).toBe(calls);
    await rig.stop(false);
  });

  test('rows never seen (creation and trigger events lost): found in the TP/SL history by the order they created, traced to alpha’s entry', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(entryWithStops) });
    const rig = new KernelRig(world, { strategies: [alpha], orphans: 'cancel' });
    const stream = lossyStream(rig, world, (e) => e.type === 'account.algo');
    await rig.start();
    expect(qtyOf(rig, 'alpha')).toBe('2');
    expect(rig.kernel.cache.openAlgoOrders()).toEqual([]);

    const child = await stopLossFires(rig, world);
    expect(rig.kernel.executor.ownerOf(child.clientOrderId)).toBeUndefined();
    const reconciled = await rig.kernel.reconcile(1);
    if (!reconciled.ok) throw new Error(reconciled.error.message);
    await rig.settle();
    expectClosedByOwnFill(rig, world, child);
    expectFillsDelivered(alpha, world, child);
    expect(reconciled.value.triggered).toBe(1);
    expect(rig.faulty.count('fetchAlgoHistory')).toBeGreaterThan(0);
    // The stop-loss row is journaled as alpha's too (adopted from the history).
    const row = world.ex.historyAlgoOrders(ACCOUNT, { limit: 10, stopCategory: 'STOP_PROFIT_LOSS' }).find((r) => r.executedOrderId === child.orderId);
    expect(rig.kernel.executor.ownerOf(row?.clientOrderId ?? '')).toBe('alpha');
    stream.unsubscribe();
    await rig.stop(false);
  });

  test('the process restarts before any reconciliation: the fill booked to external is remembered and still moves to alpha', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(entryWithStops) });
    const first = new KernelRig(world, { strategies: [alpha], orphans: 'cancel' });
    await first.start();
    const stream = lossyStream(first, world, (e) => e.type === 'account.algo' && e.order.status === 'ORDER_FILLED');
    const child = await stopLossFires(first, world);
    expect(qtyOf(first, 'alpha')).toBe('2');
    stream.unsubscribe();
    first.detach();

    // The next process: its start-up reconciliation settles the row, fetches its order and moves the fill.
    // (The start-up reconciliation runs before the strategies start: they begin from their ledgers.)
    const second = new KernelRig(world, { strategies: [scripted('alpha')], orphans: 'cancel' });
    await second.start();
    expectClosedByOwnFill(second, world, child);
    await second.stop(false);
  });

  test('a foreign order is looked up twice at most (in two reconciliations), not at every one', async () => {
    const world = new World();
    const alpha = scripted('alpha');
    const rig = new KernelRig(world, { strategies: [alpha], orphans: 'adopt' });
    await rig.start();
    // Someone else trades on the account (a manual order): its fill is external and stays so.
    world.ex.placeOrder(ACCOUNT, { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'MARKET', quantity: dec(1), priceType: 'MARKET', timeInForce: 'IOC', clientOrderId: 'manual-1', generation: 'v2' });
    await rig.advance(100);
    await rig.kernel.reconcile(1);
    await rig.settle();
    const once = rig.faulty.count('fetchAlgoHistory');
    expect(once).toBeGreaterThan(0);
    await rig.kernel.reconcile(2);
    await rig.settle();
    expect(rig.faulty.count('fetchAlgoHistory')).toBe(2 * once);
    await rig.kernel.reconcile(3);
    await rig.settle();
    expect(rig.faulty.count('fetchAlgoHistory')).toBe(2 * once);
    expect(rig.kernel.ledgers.position('external', BTC, 'LONG')?.qty.toFixed()).toBe('1');
    expect(qtyOf(rig, 'alpha') ?? '0').toBe('0');
    await rig.stop(false);
  });
});
