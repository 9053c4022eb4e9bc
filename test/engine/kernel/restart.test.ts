import { dec } from '../../../src/core/decimal.js';
import { order } from '../../sim/engine/engine-support.js';
import { ACCOUNT, KernelRig, limitBuy, limitSell, scripted, World } from './kernel-support.js';

describe('Kernel restart and lost replies: exactly one order per intent', () => {
  test('restart with open orders: the next process adopts them for their strategy, places nothing twice, issues fresh ids', async () => {
    const world = new World();
    const first = scripted('alpha', {
      onStart: (ctx) => {
        ctx.store.set('entries', 3);
        ctx.emit(limitBuy('99000', '1', 'k1'));
        ctx.emit(limitBuy('98000', '1'));
        ctx.emit(limitSell('101000', '1', 'k2'));
      },
    });
    const a = new KernelRig(world, { strategies: [first] });
    await a.start();
    const placedByA = world.openIds();
    expect(placedByA).toEqual(['alpha-1', 'alpha-k1', 'alpha-k2']);
    await a.stop(false);
    expect(a.kernel.state).toBe('stopped');
    expect(a.completed).toBe(true);
    expect(world.openIds()).toEqual(placedByA);

    // While no daemon runs, orders appear that no journal knows: one carrying alpha's tag, one foreign.
    world.ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: dec(97000), quantity: dec(1), clientOrderId: 'alpha-orphan' }));
    world.ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: dec(96000), quantity: dec(1), clientOrderId: 'manual-1' }));
    const ordersBefore = world.allOrders().length;
    expect(ordersBefore).toBe(5);

    let openAtStart: string[] = [];
    let remembered: unknown;
    const second = scripted('alpha', {
      onStart: (ctx) => {
        remembered = ctx.store.get('entries');
        openAtStart = ctx
          .openOrders()
          .map((o) => o.clientOrderId)
          .sort();
        // The strategy re-emits its keyed intent after the restart, and asks for one new unkeyed order.
        ctx.emit(limitBuy('99000', '1', 'k1'));
        ctx.emit(limitBuy('95000', '1'));
      },
    });
    const b = new KernelRig(world, { strategies: [second], orphans: 'adopt' });
    await b.start();

    // Reconciliation: the journal's orders settle as they are, the two unknown ones are adopted.
    expect(b.of('account.resynced')).toEqual([expect.objectContaining({ epoch: 0, adopted: 2, cancelled: 0, settled: 0 })]);
    expect(b.kernel.status().lastReconcile).toMatchObject({ ok: true });
    // B's strategy owns what A's placed plus the orphan with its tag; the foreign one is nobody's.
    expect(openAtStart).toEqual(['alpha-1', 'alpha-k1', 'alpha-k2', 'alpha-orphan']);
    // Its key-value store survived the restart too.
    expect(remembered).toBe(3);
    expect(b.kernel.executor.ownerOf('manual-1')).toBe('external');
    expect(world.store.journal().get('alpha-orphan')).toMatchObject({ strategyId: 'alpha', state: 'accepted', detail: 'adopted' });

    // The re-emitted key is a live order: denied, not sent again.
    expect(second.of('intent.denied').map((e) => [e.denial.code, e.intent.type === 'place' ? e.intent.key : undefined])).toEqual([['DUPLICATE_KEY', 'k1']]);
    // Exactly one new order, under an id nobody used before.
    expect(b.faulty.count('placeOrder')).toBe(1);
    const all = world.allOrders();
    expect(all).toHaveLength(ordersBefore + 1);
    const fresh = world.openIds().filter((id) => ![...placedByA, 'alpha-orphan', 'manual-1'].includes(id));
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatch(/^alpha-\d+$/);
    expect(new Set(all.map((o) => o.clientOrderId)).size).toBe(all.length);
    expect(second.ctx().openOrders()).toHaveLength(5);

    // The adopted orders are the strategy's to manage: it can cancel one of A's and the tagged orphan.
    second.emit({ type: 'cancel', clientOrderId: 'alpha-k2' });
    second.emit({ type: 'cancel', clientOrderId: 'alpha-orphan' });
    second.emit({ type: 'cancel', clientOrderId: 'manual-1' });
    await b.settle();
    expect(world.openIds()).toEqual(['alpha-1', 'alpha-k1', fresh[0], 'manual-1'].sort());
    expect(second.of('intent.denied').map((e) => e.denial.code)).toEqual(['DUPLICATE_KEY', 'NOT_OWNER']);
    await b.stop(false);
  });

  test('restart with orphans: cancel: the foreign order is cancelled, journaled orders are kept', async () => {
    const world = new World();
    const a = new KernelRig(world, { strategies: [scripted('alpha', { onStart: (ctx) => ctx.emit(limitBuy('99000', '1', 'k1')) })] });
    await a.start();
    await a.stop(false);
    world.ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: dec(96000), quantity: dec(1), clientOrderId: 'manual-1' }));

    const b = new KernelRig(world, { strategies: [scripted('alpha')], orphans: 'cancel' });
    await b.start();
    expect(b.of('account.resynced')).toEqual([expect.objectContaining({ adopted: 0, cancelled: 1 })]);
    expect(world.openIds()).toEqual(['alpha-k1']);
    expect(b.kernel.cache.openOrders().map((o) => o.clientOrderId)).toEqual(['alpha-k1']);
    await b.stop(false);
  });

  test('a lost reply with the stream up: exactly one order, settled as accepted by its stream event, seen by the strategy', async () => {
    const world = new World();
    const alpha = scripted('alpha');
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    rig.faulty.inject('placeOrder', 'lose-reply');
    alpha.emit(limitBuy('99000', '1', 'lost'));
    await rig.advance(5000);

    expect(world.openIds()).toEqual(['alpha-lost']);
    expect(rig.faulty.count('placeOrder')).toBe(1);
    expect(world.store.journal().get('alpha-lost')?.state).toBe('accepted');
    expect(rig.kernel.executor.pendingCount()).toBe(0);
    expect(alpha.of('account.order').map((e) => [e.order.clientOrderId, e.order.status])).toEqual([['alpha-lost', 'NEW']]);
    expect(alpha.of('command.submitted')).toHaveLength(1);
    expect(alpha.of('command.failed')).toEqual([]);
    expect(await rig.metric('stratd_orders_submitted_total', { strategy: 'alpha', symbol: 'BTC-SWAP-USDT' })).toBe(1);
    await rig.stop(false);
  });

  test('a lost reply with the stream down: unknown until a query settles it; a re-emitted key meanwhile is not sent', async () => {
    const world = new World();
    const alpha = scripted('alpha');
    const rig = new KernelRig(world, { strategies: [alpha], stream: false, settleAfterMs: 1000 });
    await rig.start();
    rig.faulty.inject('placeOrder', 'lose-reply');
    alpha.emit(limitBuy('99000', '1', 'lost'));
    await rig.settle();

    expect(world.store.journal().get('alpha-lost')?.state).toBe('unknown');
    expect(rig.kernel.executor.pendingCount()).toBe(1);
    expect(alpha.of('account.order')).toEqual([]);
    alpha.emit(limitBuy('99000', '1', 'lost'));
    await rig.settle();
    expect(alpha.of('intent.denied').map((e) => e.denial.code)).toEqual(['DUPLICATE_KEY']);

    await rig.advance(1000);
    expect(rig.faulty.count('queryOrder')).toBe(1);
    expect(rig.faulty.count('placeOrder')).toBe(1);
    expect(world.openIds()).toEqual(['alpha-lost']);
    expect(world.store.journal().get('alpha-lost')?.state).toBe('accepted');
    expect(alpha.of('account.order').map((e) => [e.source, e.order.clientOrderId, e.order.status])).toEqual([['rest', 'alpha-lost', 'NEW']]);
    expect(alpha.of('command.submitted')).toHaveLength(1);
    expect(rig.kernel.cache.openOrders().map((o) => o.clientOrderId)).toEqual(['alpha-lost']);
    await rig.stop(false);
  });

  test('a request that never arrived settles as rejected (NOT_FOUND to the strategy); the same key may then go again, once', async () => {
    const world = new World();
    const alpha = scripted('alpha');
    const rig = new KernelRig(world, { strategies: [alpha], stream: false, settleAfterMs: 1000 });
    await rig.start();
    rig.faulty.inject('placeOrder', 'drop-request');
    alpha.emit(limitBuy('99000', '1', 'dropped'));
    await rig.advance(1000);

    expect(world.allOrders()).toEqual([]);
    expect(world.store.journal().get('alpha-dropped')?.state).toBe('rejected');
    expect(alpha.of('command.failed').map((e) => e.failure.code)).toEqual(['NOT_FOUND']);

    alpha.emit(limitBuy('99000', '1', 'dropped'));
    await rig.settle();
    expect(world.openIds()).toEqual(['alpha-dropped']);
    expect(rig.faulty.count('placeOrder')).toBe(2);
    expect(world.store.journal().get('alpha-dropped')?.state).toBe('accepted');
    await rig.stop(false);
  });
});
