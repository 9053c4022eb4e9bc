import { dec } from '../../../src/core/decimal.js';
import type { Intent } from '../../../src/model/intents.js';
import { BTC, closeLong, ETH, KernelRig, limitBuy, marketBuy, scripted, World } from './kernel-support.js';

describe('Kernel risk: denials reach the strategy; the kill switch cancels and halts', () => {
  test('each denied intent comes back to its strategy as intent.denied with its code; nothing reaches the engine', async () => {
    const world = new World();
    const alpha = scripted('alpha', {}, { symbols: [BTC], limits: { maxPosition: dec(1) } });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();

    const denied: Array<[Intent, string]> = [
      [limitBuy('99000', '2'), 'MAX_POSITION'],
      [limitBuy('3000', '1', undefined, ETH), 'NOT_ALLOWED_SYMBOL'],
      [limitBuy('99000', '1', undefined, 'NOPE-SWAP-USDT'), 'UNKNOWN_SYMBOL'],
      [{ type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: dec(99000), quantity: dec(NaN) }, 'INVALID_QUANTITY'],
      [{ type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: dec(99000), quantity: dec(-1) }, 'INVALID_QUANTITY'],
      [{ type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: dec(-5), quantity: dec(1) }, 'INVALID_PRICE'],
      [closeLong(), 'NO_POSITION'],
      [{ type: 'cancel', clientOrderId: 'alpha-nothing' }, 'UNKNOWN_ORDER'],
    ];
    for (const [intent] of denied) alpha.emit(intent);
    await rig.settle();

    const events = alpha.of('intent.denied');
    expect(events.map((e) => e.denial.code)).toEqual(denied.map(([, code]) => code));
    expect(events.map((e) => e.intent)).toEqual(denied.map(([intent]) => intent));
    expect(events.every((e) => e.strategyId === 'alpha')).toBe(true);

    // Nothing was journaled, sent or placed.
    expect(rig.faulty.count('placeOrder') + rig.faulty.count('cancelOrder')).toBe(0);
    expect(world.allOrders()).toEqual([]);
    expect(world.store.journal().unsettled()).toEqual([]);
    expect(rig.of('command.submitted')).toEqual([]);

    // Counted by reason.
    expect(await rig.metric('stratd_intents_denied_total', { strategy: 'alpha', reason: 'INVALID_QUANTITY' })).toBe(2);
    expect(await rig.metric('stratd_intents_denied_total', { strategy: 'alpha', reason: 'MAX_POSITION' })).toBe(1);
    expect(await rig.metric('stratd_intents_total', { strategy: 'alpha', outcome: 'denied' })).toBe(denied.length);

    // Within the limit, the same order goes through.
    alpha.emit(limitBuy('99000', '1'));
    await rig.settle();
    expect(world.openOrders().map((o) => o.clientOrderId)).toEqual(['alpha-1']);
    await rig.stop(false);
  });

  test("a denial goes to the strategy that asked only, never to another one", async () => {
    const world = new World();
    const alpha = scripted('alpha');
    const beta = scripted('beta');
    const rig = new KernelRig(world, { strategies: [alpha, beta] });
    await rig.start();
    alpha.emit(limitBuy('99000', '0'));
    await rig.settle();
    expect(alpha.of('intent.denied').map((e) => e.denial.code)).toEqual(['INVALID_QUANTITY']);
    expect(beta.of('intent.denied')).toEqual([]);
    await rig.stop(false);
  });

  test('a daily loss engages the kill switch: resting orders cancelled, opening denied, closing allowed; a new day releases', async () => {
    const world = new World();
    const alpha = scripted('alpha', {
      onStart: (ctx) => {
        ctx.emit(marketBuy('1', 'entry'));
        ctx.emit(limitBuy('99000', '1', 'resting-1'));
        ctx.emit(limitBuy('98000', '1', 'resting-2'));
      },
    });
    const rig = new KernelRig(world, { strategies: [alpha], globalLimits: { dailyLossLimit: dec('0.5') } });
    await rig.start();
    expect(world.openIds()).toEqual(['alpha-resting-1', 'alpha-resting-2']);
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('1');
    expect(rig.of('risk.killSwitch')).toEqual([]);

    // The mark drops 1%: 1 contract × 0.001 BTC × −1000 = −1 USDT unrealized, beyond the 0.5 limit.
    world.clock.advanceBy(1000);
    world.mark('99000');
    await rig.settle();

    const engaged = rig.of('risk.killSwitch');
    expect(engaged).toHaveLength(1);
    expect(engaged[0]).toMatchObject({ engaged: true });
    expect(engaged[0]?.dayPnl.lte(dec('-0.5'))).toBe(true);
    expect(alpha.of('risk.killSwitch')).toHaveLength(1);
    expect(rig.kernel.status().killSwitch.engaged).toBe(true);
    expect(await rig.metric('stratd_kill_switch_engaged', {})).toBe(1);
    // Every resting order was cancelled on the engine, and the strategy was told.
    expect(world.openOrders()).toEqual([]);
    expect(rig.kernel.cache.openOrders()).toEqual([]);
    const cancelled = alpha.of('account.order').filter((e) => e.order.status === 'CANCELED').map((e) => e.order.clientOrderId);
    expect([...new Set(cancelled)].sort()).toEqual(['alpha-resting-1', 'alpha-resting-2']);
    // The position stays.
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('1');

    // Opening is denied; closing goes through and flattens the position on the engine.
    const placedBefore = rig.faulty.count('placeOrder');
    alpha.emit(limitBuy('97000', '1', 'after-kill'));
    await rig.settle();
    expect(alpha.of('intent.denied').map((e) => e.denial.code)).toEqual(['KILL_SWITCH']);
    expect(rig.faulty.count('placeOrder')).toBe(placedBefore);
    alpha.emit(closeLong());
    await rig.settle();
    expect(rig.faulty.count('placeOrder')).toBe(placedBefore + 1);
    expect(alpha.of('intent.denied')).toHaveLength(1);
    expect(world.ex.positions({ userId: '100', category: 'USDT' }, BTC, 'LONG').every((p) => dec(p.position).isZero())).toBe(true);
    expect(rig.kernel.cache.position(BTC, 'LONG')).toBeUndefined();

    // A new trading day releases it; opening goes through again.
    world.clock.advanceBy(1000);
    rig.kernel.startNewDay();
    await rig.settle();
    expect(rig.of('risk.killSwitch').map((e) => e.engaged)).toEqual([true, false]);
    expect(alpha.of('risk.killSwitch').map((e) => e.engaged)).toEqual([true, false]);
    expect(await rig.metric('stratd_kill_switch_engaged', {})).toBe(0);
    alpha.emit(limitBuy('97000', '1', 'next-day'));
    await rig.settle();
    expect(world.openIds()).toEqual(['alpha-next-day']);
    await rig.stop(false);
  });

  test('an operator halt is the kill switch without a loss; resume releases it (a new day does not)', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(limitBuy('99000', '1', 'resting')) });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    expect(world.openIds()).toEqual(['alpha-resting']);

    rig.kernel.halt('operator');
    await rig.settle();
    expect(world.openOrders()).toEqual([]);
    alpha.emit(limitBuy('99000', '1', 'while-halted'));
    await rig.settle();
    expect(alpha.of('intent.denied').map((e) => e.denial.code)).toEqual(['KILL_SWITCH']);

    rig.kernel.startNewDay();
    await rig.settle();
    expect(rig.kernel.status().killSwitch.engaged).toBe(true);

    rig.kernel.resume();
    await rig.settle();
    expect(rig.kernel.status().killSwitch.engaged).toBe(false);
    alpha.emit(limitBuy('99000', '1', 'resumed'));
    await rig.settle();
    expect(world.openIds()).toEqual(['alpha-resumed']);
    await rig.stop(false);
  });
});
