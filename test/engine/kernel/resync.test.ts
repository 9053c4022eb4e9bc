import { dec } from '../../../src/core/decimal.js';
import { order } from '../../sim/engine/engine-support.js';
import { ACCOUNT, BTC, KernelRig, limitBuy, marketBuy, scripted, T0, World } from './kernel-support.js';

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

/**
 * A reconciliation that fails while the kernel runs is run again on the kernel's scheduler: 250 ms after
 * the first failure, doubling per consecutive failure up to 15 s; a success resets the delay and stops
 * the retries; stop() cancels a pending one. The port's account fetch fails through the FaultyPort.
 */
describe('Kernel reconcile retry after a failed reconciliation', () => {
  /** A started kernel with one resting order 'alpha-stays', and the exchange changed behind a dropped stream. */
  async function droppedStream(): Promise<{ world: World; rig: KernelRig }> {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(limitBuy('97000', '1', 'stays')) });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    expect(rig.kernel.cache.openOrders().map((o) => o.clientOrderId)).toEqual(['alpha-stays']);
    rig.disconnectStream();
    rig.kernel.ingest({ type: 'stream.disconnected', time: world.clock.now(), reason: 'test' });
    world.clock.advanceBy(1000);
    // Behind the kernel's back: the resting order is cancelled and a position is opened.
    world.ex.cancelOrder(ACCOUNT, { clientOrderId: 'alpha-stays' });
    expect(world.ex.placeOrder(ACCOUNT, order({ side: 'BUY', type: 'MARKET', quantity: dec(1), clientOrderId: 'manual-1' })).ok).toBe(true);
    await rig.settle();
    expect(rig.kernel.cache.order('alpha-stays')?.status).toBe('NEW');
    expect(rig.kernel.cache.position(BTC, 'LONG')).toBeUndefined();
    return { world, rig };
  }

  /** The stream comes back: the kernel reconciles for this epoch. */
  async function reconnect(rig: KernelRig, epoch: number): Promise<void> {
    rig.connectStream();
    rig.kernel.ingest({ type: 'stream.connected', time: rig.clock.now(), epoch });
    await rig.settle();
  }

  /** Moves virtual time by exactly `ms` (one step) and lets the work it triggered finish. */
  async function step(rig: KernelRig, ms: number): Promise<void> {
    rig.clock.advanceBy(ms);
    await rig.settle();
  }

  test('two failed runs are retried 250 ms, then 500 ms later; the third run resyncs the cache and nothing more is scheduled', async () => {
    const { world, rig } = await droppedStream();
    const fetches = (): number => rig.faulty.count('fetchAccount');
    expect(fetches()).toBe(1); // the start-up reconciliation
    rig.faulty.inject('fetchAccount', 'fail', 'fail');

    await reconnect(rig, 1);
    expect(fetches()).toBe(2);
    expect(rig.kernel.lastReconcile).toMatchObject({ ok: false });
    expect(rig.kernel.status()).toMatchObject({ resyncing: false, lastReconcile: { ok: false } });
    expect(rig.of('account.resynced').map((e) => e.epoch)).toEqual([0]);
    expect(world.clock.pending()).toBe(1); // the retry, nothing else is scheduled (no ticks, no latency)

    // First retry: 250 ms after the failure, not before.
    await step(rig, 249);
    expect(fetches()).toBe(2);
    await step(rig, 1);
    expect(fetches()).toBe(3);
    expect(rig.kernel.lastReconcile).toMatchObject({ ok: false, time: T0 + 1000 + 250 });

    // Second retry: 500 ms after the second failure.
    await step(rig, 499);
    expect(fetches()).toBe(3);
    await step(rig, 1);
    expect(fetches()).toBe(4);
    expect(rig.kernel.lastReconcile).toMatchObject({ ok: true, time: T0 + 1000 + 750 });

    // The cache equals the exchange again: the cancel and the position made during the outage are in.
    expect(rig.of('account.resynced').map((e) => e.epoch)).toEqual([0, 1]);
    expect(rig.kernel.cache.order('alpha-stays')?.status).toBe('CANCELED');
    expect(rig.kernel.cache.openOrders()).toEqual([]);
    expect(world.openIds()).toEqual([]);
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('1');
    expect(world.ex.positions(ACCOUNT, BTC, 'LONG').map((p) => p.position)).toEqual(['1']);
    expect(await rig.metric('stratd_reconciliations_total', { outcome: 'failed' })).toBe(2);
    expect(await rig.metric('stratd_reconciliations_total', { outcome: 'ok' })).toBe(2);

    // After the success, no further run is scheduled.
    expect(world.clock.pending()).toBe(0);
    await rig.advance(60_000, 1000);
    expect(fetches()).toBe(4);
    await rig.stop(false);
  });

  test('the delay doubles per consecutive failure up to 15 s, and a success resets it to 250 ms', async () => {
    const { world, rig } = await droppedStream();
    const fetches = (): number => rig.faulty.count('fetchAccount');
    rig.faulty.inject('fetchAccount', ...Array.from({ length: 8 }, () => 'fail' as const));
    await reconnect(rig, 1);

    // Virtual time in 50 ms steps (every delay is a multiple of 50): each retry fires when due, not a step earlier,
    // and fails again until the eighth failure.
    const delays: number[] = [];
    expect(fetches()).toBe(2); // start-up and reconnect
    while (fetches() < 10) {
      const before = fetches();
      let waited = 0;
      while (fetches() === before) {
        if (waited > 20_000) throw new Error(`no retry within ${waited} ms after fetch ${before}`);
        await step(rig, 50);
        waited += 50;
      }
      delays.push(waited);
    }
    // 250, 500, 1000, 2000, 4000, 8000, then 15000 (not 16000: capped); the tenth fetch, 15 s after the eighth failure, succeeds.
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 15_000, 15_000]);
    expect(rig.kernel.lastReconcile).toMatchObject({ ok: true });
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('1');
    expect(await rig.metric('stratd_reconciliations_total', { outcome: 'failed' })).toBe(8);
    expect(world.clock.pending()).toBe(0);

    // A later failure (the next reconnect) starts over at 250 ms.
    rig.faulty.inject('fetchAccount', 'fail');
    rig.disconnectStream();
    rig.kernel.ingest({ type: 'stream.disconnected', time: world.clock.now(), reason: 'test' });
    await reconnect(rig, 2);
    expect(fetches()).toBe(11);
    await step(rig, 249);
    expect(fetches()).toBe(11);
    await step(rig, 1);
    expect(fetches()).toBe(12);
    expect(rig.kernel.lastReconcile).toMatchObject({ ok: true });
    expect(rig.of('account.resynced').map((e) => e.epoch)).toEqual([0, 1, 2]);
    expect(world.clock.pending()).toBe(0);
    await rig.stop(false);
  });

  test('a success from elsewhere (the next reconnect) cancels the pending retry: no extra run, no stale epoch announced', async () => {
    const { world, rig } = await droppedStream();
    rig.faulty.inject('fetchAccount', 'fail');
    await reconnect(rig, 1);
    expect(world.clock.pending()).toBe(1); // the retry of epoch 1
    await step(rig, 100);
    await reconnect(rig, 2);
    expect(rig.kernel.lastReconcile).toMatchObject({ ok: true });
    expect(world.clock.pending()).toBe(0);
    await step(rig, 60_000);
    expect(rig.faulty.count('fetchAccount')).toBe(3); // start-up, failed epoch 1, epoch 2
    expect(rig.of('account.resynced').map((e) => e.epoch)).toEqual([0, 2]);
    await rig.stop(false);
  });

  test('stop() cancels a pending retry', async () => {
    const { world, rig } = await droppedStream();
    rig.faulty.inject('fetchAccount', 'fail', 'fail');
    await reconnect(rig, 1);
    expect(rig.faulty.count('fetchAccount')).toBe(2);
    expect(world.clock.pending()).toBe(1);

    await rig.stop(false);
    expect(rig.kernel.state).toBe('stopped');
    expect(world.clock.pending()).toBe(0);
    world.clock.advanceBy(60_000);
    await rig.settle();
    expect(rig.faulty.count('fetchAccount')).toBe(2);
    expect(await rig.metric('stratd_reconciliations_total', { outcome: 'failed' })).toBe(1);
  });

  test('a reconciliation that fails before the kernel runs (start-up) is not retried: start() reports it', async () => {
    const world = new World();
    const rig = new KernelRig(world, { strategies: [scripted('alpha')] });
    rig.faulty.inject('fetchAccount', 'fail');
    const started = await rig.kernel.start();
    expect(started.ok).toBe(false);
    expect(rig.kernel.state).toBe('created');
    world.clock.advanceBy(60_000);
    await rig.settle();
    expect(rig.faulty.count('fetchAccount')).toBe(1);
    rig.detach();
  });
});
