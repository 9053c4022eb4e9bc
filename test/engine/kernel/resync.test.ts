import { dec } from '../../../src/core/decimal.js';
import { ACCOUNT, BTC, KernelRig, limitBuy, marketBuy, scripted, World } from './kernel-support.js';

describe('Kernel resync: after a stream drop, local orders and positions equal the exchange again', () => {
  test('orders filled and cancelled while the stream was down are settled by the reconnect reconciliation', async () => {
    const world = new World();
    const alpha = scripted('alpha', {
      onStart: (ctx) => {
        ctx.emit(limitBuy('99000', '1', 'fills'));
        ctx.emit(limitBuy('98000', '1', 'cancelled'));
        ctx.emit(limitBuy('97000', '1', 'stays'));
      },
    });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    expect(rig.kernel.cache.openOrders()).toHaveLength(3);

    rig.disconnectStream();
    rig.kernel.ingest({ type: 'stream.disconnected', time: world.clock.now(), reason: 'test' });
    world.clock.advanceBy(1000);
    world.trade('98990', '1', 'SELL');
    world.ex.cancelOrder(ACCOUNT, { clientOrderId: 'alpha-cancelled' });
    await rig.settle();
    // The kernel missed all of it.
    expect(rig.kernel.cache.openOrders()).toHaveLength(3);
    expect(rig.kernel.cache.position(BTC, 'LONG')).toBeUndefined();

    world.clock.advanceBy(1000);
    rig.connectStream();
    rig.kernel.ingest({ type: 'stream.connected', time: world.clock.now(), epoch: 1 });
    await rig.settle();

    expect(rig.of('account.resynced').map((e) => e.epoch)).toEqual([0, 1]);
    const local = rig.kernel.cache
      .openOrders()
      .map((o) => o.clientOrderId)
      .sort();
    expect(local).toEqual(world.openIds());
    expect(local).toEqual(['alpha-stays']);
    expect(rig.kernel.cache.order('alpha-fills')?.status).toBe('FILLED');
    expect(rig.kernel.cache.order('alpha-cancelled')?.status).toBe('CANCELED');
    const exchangePositions = world.ex.positions(ACCOUNT, BTC, 'LONG').map((p) => p.position);
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe(exchangePositions[0]);
    expect(exchangePositions).toEqual(['1']);
    // The strategy heard the final states and the missed fill (from REST), once.
    expect(alpha.of('account.fill').map((e) => [e.source, e.fill.clientOrderId])).toEqual([['rest', 'alpha-fills']]);
    expect(alpha.of('account.order').filter((e) => e.order.status === 'FILLED' || e.order.status === 'CANCELED').map((e) => [e.order.clientOrderId, e.order.status])).toEqual([
      ['alpha-fills', 'FILLED'],
      ['alpha-cancelled', 'CANCELED'],
    ]);
    expect(world.store.journal().unsettled().map((e) => e.id)).toEqual(['alpha-stays']);
    expect(rig.kernel.status()).toMatchObject({ resyncing: false, openOrders: 1 });
    await rig.stop(false);
  });

  test("a restarted kernel takes an existing position's loss as the day's baseline: only a further loss engages the kill switch", async () => {
    const world = new World();
    const a = new KernelRig(world, { strategies: [scripted('alpha', { onStart: (ctx) => ctx.emit(marketBuy('1', 'entry')) })] });
    await a.start();
    await a.stop(false);

    // Down 1 USDT while no daemon runs; the new one starts with a 0.5 daily loss limit.
    world.clock.advanceBy(1000);
    world.mark('99000');
    const alpha = scripted('alpha');
    const b = new KernelRig(world, { strategies: [alpha], globalLimits: { dailyLossLimit: dec('0.5') } });
    await b.start();
    expect(b.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('1');
    expect(b.of('risk.killSwitch')).toEqual([]);
    alpha.emit(limitBuy('90000', '1', 'allowed'));
    await b.settle();
    expect(world.openIds()).toEqual(['alpha-allowed']);

    world.clock.advanceBy(1000);
    world.mark('98000');
    await b.settle();
    expect(b.of('risk.killSwitch').map((e) => e.engaged)).toEqual([true]);
    expect(world.openIds()).toEqual([]);
    await b.stop(false);
  });
});

/**
 * Open plan orders could open a position while no daemon watches: shutdown with cancelOpenOrders
 * cancels them (as the kill switch does) and keeps TP/SL rows, which protect positions.
 */
describe('Kernel shutdown with plan orders', () => {
  test('stop({cancelOpenOrders: true}) also cancels open plan orders', async () => {
    const world = new World();
    const alpha = scripted('alpha', {
      onStart: (ctx) => ctx.emit({ type: 'plan', key: 'p1', symbol: BTC, side: 'BUY', triggerPrice: dec(101000), orderType: 'MARKET', quantity: dec(1) }),
    });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    const openPlans = (): string[] => world.ex.openAlgoOrders(ACCOUNT, { limit: 10, stopCategory: 'STOP' }).map((o) => o.clientOrderId);
    expect(openPlans()).toEqual(['alpha-p1']);
    await rig.stop(true);
    expect(openPlans()).toEqual([]);
  });
});
