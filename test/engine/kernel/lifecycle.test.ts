import { dec } from '../../../src/core/decimal.js';
import type { StrategyInstance } from '../../../src/engine/strategy/instance.js';
import type { OrderSnapshot } from '../../../src/model/orders.js';
import spreadQuoter from '../../../strategies/spread-quoter/index.js';
import { BTC, KernelRig, limitBuy, limitSell, scripted, World } from './kernel-support.js';

describe('Kernel cache: stale and repeated account events never regress it', () => {
  test('an older order event after a newer one (and a stale position, a repeated fill) changes nothing and reaches nobody', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(limitBuy('99000', '2', 'rest')) });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    const id = 'alpha-rest';
    const orderEvents = (): Array<{ source: string; order: OrderSnapshot }> => rig.of('account.order').filter((e) => e.order.clientOrderId === id);
    // The REST reply of the place came after the stream event of the same state: not published twice.
    expect(orderEvents().map((e) => [e.source, e.order.status])).toEqual([['stream', 'NEW']]);
    const newest = rig.of('account.order').find((e) => e.order.clientOrderId === id && e.order.status === 'NEW');
    if (newest === undefined) throw new Error('no NEW event');

    // A print through the bid fills half of it.
    world.clock.advanceBy(1000);
    world.trade('98990', '1', 'SELL');
    await rig.settle();
    const partial = rig.kernel.cache.order(id);
    expect([partial?.status, partial?.filledQty.toFixed()]).toEqual(['PARTIALLY_FILLED', '1']);
    const position = rig.kernel.cache.position(BTC, 'LONG');
    expect(position?.qty.toFixed()).toBe('1');
    const fill = rig.of('account.fill')[0];
    if (position === undefined || fill === undefined) throw new Error('no position or fill');

    const published = rig.events.length;
    const seen = alpha.seen.length;
    const now = world.clock.now();
    // The stream delivers late: the original NEW, a NEW stamped between the two, an older flat position,
    // and the fill once more.
    rig.kernel.ingest(newest);
    rig.kernel.ingest({ ...newest, time: now, order: { ...newest.order, updateTime: partial?.updateTime === undefined ? now : partial.updateTime - 1 } });
    rig.kernel.ingest({ type: 'account.position', source: 'stream', time: now, position: { ...position, qty: dec(0), updateTime: position.updateTime - 1 } });
    rig.kernel.ingest(fill);
    await rig.settle();

    expect(rig.kernel.cache.order(id)).toEqual(partial);
    expect(rig.kernel.cache.openOrders().map((o) => [o.clientOrderId, o.status])).toEqual([[id, 'PARTIALLY_FILLED']]);
    expect(rig.kernel.cache.position(BTC, 'LONG')).toEqual(position);
    expect(rig.events).toHaveLength(published);
    expect(alpha.seen).toHaveLength(seen);
    expect(world.store.journal().get(id)?.state).toBe('accepted');
    expect(await rig.metric('stratd_fills_total', { strategy: 'alpha', symbol: BTC })).toBe(1);

    // The rest fills; afterwards even a newer-stamped NEW cannot reopen the finished order.
    world.clock.advanceBy(1000);
    world.trade('98990', '5', 'SELL');
    await rig.settle();
    expect(rig.kernel.cache.order(id)?.status).toBe('FILLED');
    const afterFill = rig.events.length;
    rig.kernel.ingest({ ...newest, time: world.clock.now() + 1, order: { ...newest.order, updateTime: world.clock.now() + 1 } });
    await rig.settle();
    expect(rig.kernel.cache.order(id)?.status).toBe('FILLED');
    expect(rig.kernel.cache.openOrders()).toEqual([]);
    expect(rig.events).toHaveLength(afterFill);
    expect(world.store.journal().get(id)?.state).toBe('done');
    expect(orderEvents().map((e) => e.order.status)).toEqual(['NEW', 'PARTIALLY_FILLED', 'FILLED']);
    await rig.stop(false);
  });
});

describe('Kernel shutdown', () => {
  test('stop({cancelOpenOrders: true}): clean-up intents of onStop run (both styles), then nothing stays open on the engine', async () => {
    const world = new World();
    let openAtStop: string[] = [];
    const alpha = scripted('alpha', {
      onStart: (ctx) => {
        ctx.emit(limitBuy('99000', '1', 'b1'));
        ctx.emit(limitBuy('98000', '1', 'b2'));
        ctx.emit(limitSell('101000', '1', 's1'));
      },
      onStop: (ctx) => {
        openAtStop = ctx
          .openOrders()
          .map((o) => o.clientOrderId)
          .sort();
        ctx.emit({ type: 'cancel', clientOrderId: ctx.clientOrderIdFor('b1') });
      },
    });
    const beta = scripted('beta', { onStart: (ctx) => ctx.emit(limitBuy('97000', '1', 'x')) });
    // The example market maker: its stream ends with a cancel-all of its symbols.
    const quoter: StrategyInstance = { id: 'quoter', symbols: [BTC], definition: spreadQuoter, params: spreadQuoter.params.parse({}), limits: {} };
    const rig = new KernelRig(world, { strategies: [alpha, beta, quoter] });
    await rig.start();
    world.clock.advanceBy(1000);
    world.book([['99999.9', '5']], [['100000', '2']]);
    await rig.settle();
    const quotes = world.openIds().filter((id) => id.startsWith('quoter-'));
    expect(quotes).toHaveLength(2);
    expect(world.openIds()).toEqual(['alpha-b1', 'alpha-b2', 'alpha-s1', 'beta-x', ...quotes].sort());

    await rig.stop(true);

    expect(alpha.hooks).toEqual(['start', 'stop']);
    expect(openAtStop).toEqual(['alpha-b1', 'alpha-b2', 'alpha-s1']);
    const submitted = rig.of('command.submitted').filter((e) => e.command.type.startsWith('cancel'));
    // alpha's own clean-up cancel, the quoter's cancel-all (one cancel per quote), then the shutdown's cancel-all.
    expect(submitted.filter((e) => e.strategyId === 'alpha').map((e) => e.command)).toEqual([{ type: 'cancel-order', symbol: BTC, clientOrderId: 'alpha-b1' }]);
    expect(
      submitted
        .filter((e) => e.strategyId === 'quoter')
        .map((e) => (e.command.type === 'cancel-order' ? e.command.clientOrderId : e.command.type))
        .sort(),
    ).toEqual(quotes);
    expect(submitted.filter((e) => e.strategyId === 'shutdown').map((e) => e.command)).toEqual([{ type: 'cancel-all', symbol: BTC }]);

    expect(world.openOrders()).toEqual([]);
    expect(rig.kernel.cache.openOrders()).toEqual([]);
    expect(rig.kernel.state).toBe('stopped');
    expect(rig.completed).toBe(true);
    expect(rig.of('strategy.stopped').map((e) => [e.strategyId, e.failed]).sort()).toEqual([
      ['alpha', false],
      ['beta', false],
      ['quoter', false],
    ]);
    expect(rig.kernel.executor.pendingCount()).toBe(0);
    expect(world.store.journal().unsettled()).toEqual([]);
    expect(['alpha', 'beta', 'quoter'].map((id) => rig.kernel.strategies.state(id))).toEqual(['stopped', 'stopped', 'stopped']);
  });

  test('timer ticks reach every running strategy in virtual time and stop with the kernel', async () => {
    const world = new World();
    const alpha = scripted('alpha');
    const rig = new KernelRig(world, { strategies: [alpha], tickMs: 1000 });
    await rig.start();
    await rig.advance(5000);
    expect(alpha.of('timer').map((e) => e.time - alpha.of('timer')[0]!.time)).toEqual([0, 1000, 2000, 3000, 4000]);
    await rig.stop(false);
    world.clock.advanceBy(5000);
    expect(alpha.of('timer')).toHaveLength(5);
    expect(world.clock.pending()).toBe(0);
  });

  test('stop({cancelOpenOrders: false}) leaves the orders resting, journaled as accepted', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(limitBuy('99000', '1', 'b1')) });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    await rig.stop(false);
    expect(world.openIds()).toEqual(['alpha-b1']);
    expect(world.store.journal().get('alpha-b1')?.state).toBe('accepted');
    expect(rig.of('command.submitted').map((e) => e.command.type)).toEqual(['place-order']);
  });
});
