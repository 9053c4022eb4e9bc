import { dec } from '../../../src/core/decimal.js';
import { EXTERNAL_LEDGER } from '../../../src/model/ledger.js';
import { order } from '../../sim/engine/engine-support.js';
import { ACCOUNT, BTC, KernelRig, marketBuy, scripted, World } from '../kernel/kernel-support.js';

/**
 * A liquidation on the simulated exchange (isolated 50x, the mark crossing the liquidation price)
 * reaches the strategies that owned the position: the event, the corrected ledgers, the metric, and
 * the closing plan order one of them left for it cancelled.
 */
describe('liquidation reaches the owning strategies and the ledgers', () => {
  test('both owners lose their holding, each gets its event, the orphaned closing plan is cancelled', async () => {
    const world = new World();
    expect(world.ex.setMarginType(ACCOUNT, BTC, 'ISOLATED').ok).toBe(true);
    expect(world.ex.setLeverage(ACCOUNT, BTC, 50).ok).toBe(true);
    const alpha = scripted('alpha', {
      onStart: (ctx) => {
        ctx.emit(marketBuy('6', 'entry'));
        // Its take-profit as a closing plan order: left behind by a liquidation, it would wait for a position that is gone.
        ctx.emit({ type: 'plan', key: 'tp', symbol: BTC, side: 'SELL', positionSide: 'LONG', reduceOnly: true, triggerPrice: dec(105000), orderType: 'MARKET', quantity: dec(6) });
      },
    });
    const beta = scripted('beta', { onStart: (ctx) => ctx.emit(marketBuy('4', 'entry')) });
    const rig = new KernelRig(world, { strategies: [alpha, beta] });
    await rig.start();
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('10');
    expect(rig.kernel.cache.openAlgoOrders(BTC).map((a) => a.clientOrderId)).toEqual(['alpha-tp']);

    const liquidation = Number(world.ex.positions(ACCOUNT)[0]?.liquidationPrice);
    expect(liquidation).toBeGreaterThan(90000);
    world.mark(Math.floor(liquidation - 10).toFixed(0));
    await rig.settle();
    expect(world.ex.positions(ACCOUNT)).toEqual([]);

    const lost = rig.of('ledger.positionLost');
    expect(lost.map((e) => [e.strategyId, e.cause, e.qty.toFixed(), e.remaining.toFixed()]).sort()).toEqual([
      ['alpha', 'liquidation', '6', '0'],
      ['beta', 'liquidation', '4', '0'],
    ]);
    // Each owner is told about its own loss only.
    expect(alpha.of('ledger.positionLost').map((e) => e.strategyId)).toEqual(['alpha']);
    expect(beta.of('ledger.positionLost').map((e) => e.strategyId)).toEqual(['beta']);
    expect(alpha.ctx().position(BTC, 'LONG')?.qty.toFixed()).toBe('0');
    expect(beta.ctx().position(BTC, 'LONG')?.qty.toFixed()).toBe('0');
    expect(rig.kernel.ledgers.position(EXTERNAL_LEDGER, BTC, 'LONG')?.qty.toFixed()).toBe('0');
    // The loss is in alpha's realized PnL, at the liquidation order's price.
    expect(rig.kernel.ledgers.position('alpha', BTC, 'LONG')?.realizedPnl.lt(0)).toBe(true);
    expect(await rig.metric('stratd_positions_lost_total', { strategy: 'alpha', symbol: BTC, cause: 'liquidation' })).toBe(1);

    // The closing plan alpha left is cancelled on the exchange.
    expect(rig.kernel.cache.openAlgoOrders(BTC)).toEqual([]);
    expect(rig.of('command.submitted').filter((e) => e.command.type === 'cancel-algo').map((e) => [e.strategyId, e.command.type === 'cancel-algo' ? e.command.clientOrderId : ''])).toEqual([['alpha', 'alpha-tp']]);

    // A resync afterwards finds nothing more to correct.
    await rig.kernel.reconcile(0);
    await rig.settle();
    expect(rig.of('ledger.positionLost')).toHaveLength(2);
    await rig.stop(false);
  });

  test('a position that shrank while nobody watched is taken from the owner at the next resync', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(marketBuy('5', 'entry')) });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    // The stream is down while 2 contracts are closed by an order this daemon does not know.
    rig.disconnectStream();
    world.ex.placeOrder(ACCOUNT, order({ side: 'SELL', positionSide: 'LONG', type: 'MARKET', priceType: 'MARKET', timeInForce: 'IOC', quantity: dec(2), clientOrderId: 'web-close' }));
    rig.connectStream();
    await rig.kernel.reconcile(1);
    await rig.settle();
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('3');
    expect(alpha.ctx().position(BTC, 'LONG')?.qty.toFixed()).toBe('3');
    expect(alpha.of('ledger.positionLost').map((e) => [e.cause, e.qty.toFixed(), e.remaining.toFixed()])).toEqual([['unattributed', '2', '3']]);
    await rig.stop(false);
  });
});
