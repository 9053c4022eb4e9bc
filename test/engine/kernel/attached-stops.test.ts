import { dec } from '../../../src/core/decimal.js';
import type { Intent } from '../../../src/model/intents.js';
import { ACCOUNT, BTC, KernelRig, scripted, World } from './kernel-support.js';

/**
 * The TP/SL rows an order's attached takeProfit/stopLoss create carry exchange-generated client ids. They
 * belong to the strategy that placed the order (found by the row's parent order id), not to `external`,
 * and their events reach that strategy.
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

describe('attached TP/SL rows belong to the strategy that placed the order', () => {
  test('owned by the placing strategy, in status and events; another strategy sees none of them', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(entryWithStops) });
    const beta = scripted('beta');
    const rig = new KernelRig(world, { strategies: [alpha, beta], orphans: 'cancel' });
    await rig.start();

    const rows = world.ex.openAlgoOrders(ACCOUNT, { limit: 100, stopCategory: 'STOP_PROFIT_LOSS' });
    expect(rows.map((r) => r.tpsl?.stopOrderType).sort()).toEqual(['STOP_LOSS', 'TAKE_PROFIT']);
    for (const row of rows) {
      expect(row.clientOrderId).not.toMatch(/^alpha/);
      expect(rig.kernel.executor.ownerOf(row.clientOrderId)).toBe('alpha');
    }
    expect(rig.kernel.executor.openOrdersOf('alpha', 'algo').slice().sort()).toEqual(rows.map((r) => r.clientOrderId).sort());
    const seen = new Set(alpha.of('account.algo').map((e) => e.order.clientOrderId));
    expect([...seen].sort()).toEqual(rows.map((r) => r.clientOrderId).sort());
    expect(beta.of('account.algo')).toEqual([]);

    // The stop-loss fires: its row's fill and final state reach alpha too.
    world.book([['96000', '50']], [['96100', '50']]);
    world.trade('96900', '1', 'SELL');
    await rig.advance(1000);
    const sl = rows.find((r) => r.tpsl?.stopOrderType === 'STOP_LOSS');
    const last = alpha.of('account.algo').filter((e) => e.order.clientOrderId === sl?.clientOrderId).at(-1);
    expect(last?.order.status).toBe('ORDER_FILLED');
    // The closing order the row created is alpha's as well (linked by executedOrderId).
    const child = world.allOrders().find((o) => o.orderId === last?.order.executedOrderId);
    expect(child?.status).toBe('FILLED');
    expect(rig.kernel.executor.ownerOf(child?.clientOrderId ?? '')).toBe('alpha');
    expect(rig.kernel.cache.position(BTC, 'LONG')).toBeUndefined();
    await rig.stop(false);
  });

  test('with the stream down, the reconciliation finds the rows and they are still the strategy\'s, not orphans', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(entryWithStops) });
    const rig = new KernelRig(world, { strategies: [alpha], orphans: 'cancel', stream: false });
    await rig.start();
    // The entry's reply told its fill; the rows' creation events were lost with the stream.
    const rows = world.ex.openAlgoOrders(ACCOUNT, { limit: 100, stopCategory: 'STOP_PROFIT_LOSS' });
    expect(rows).toHaveLength(2);
    const reconciled = await rig.kernel.reconcile(0);
    expect(reconciled.ok).toBe(true);
    await rig.settle();
    for (const row of rows) expect(rig.kernel.executor.ownerOf(row.clientOrderId)).toBe('alpha');
    // Adopted, not cancelled as orphans.
    expect(world.ex.openAlgoOrders(ACCOUNT, { limit: 100, stopCategory: 'STOP_PROFIT_LOSS' }).map((r) => r.status)).toEqual(['ORDER_NEW', 'ORDER_NEW']);
    await rig.stop(false);
  });
});
