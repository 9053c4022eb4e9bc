import { sleep } from '../../../src/core/clock.js';
import { isAccountEvent, isMarketEvent } from '../../../src/model/bus-events.js';
import { interestedIn } from '../../../src/engine/interest.js';
import type { MarketEvent } from '../../../src/model/market-events.js';
import type { TestStrategy } from './kernel-support.js';
import { BTC, KernelRig, limitBuy, marketBuy, scripted, World } from './kernel-support.js';

describe('Kernel strategies: one failing or slow instance never harms the others', () => {
  test('a strategy that throws is stopped and reported; it gets nothing more; the other keeps trading', async () => {
    const world = new World();
    const bad = scripted('bad', {
      onEvent: (_ctx, event) => {
        if (event.type === 'market.book') throw new Error('boom in onEvent');
      },
    });
    const good = scripted('good');
    const rig = new KernelRig(world, { strategies: [bad, good] });
    await rig.start();

    world.clock.advanceBy(1000);
    world.book([['99999.9', '5']], [['100000', '2'], ['100000.1', '3']]);
    await rig.settle();

    const stopped = rig.of('strategy.stopped');
    expect(stopped).toEqual([expect.objectContaining({ strategyId: 'bad', failed: true, reason: 'boom in onEvent' })]);
    expect(rig.kernel.strategies.state('bad')).toBe('failed');
    expect(rig.kernel.strategies.state('good')).toBe('running');
    expect(rig.kernel.status().strategies.find((s) => s.id === 'bad')?.lastError).toBe('boom in onEvent');
    expect(await rig.metric('stratd_strategy_failures_total', { strategy: 'bad' })).toBe(1);
    const seenByBad = bad.seen.length;
    expect(bad.seen.at(-1)?.type).toBe('market.book');

    // More market data and a trade of the good strategy: the failed one hears nothing of it.
    world.clock.advanceBy(1000);
    world.mark('100001');
    world.trade('100000', '0.1', 'BUY');
    good.emit(marketBuy('1', 'after-failure'));
    // Its own timers may still fire: what it emits now goes nowhere.
    bad.emit(limitBuy('99000', '1', 'zombie'));
    await rig.settle();

    expect(bad.seen).toHaveLength(seenByBad);
    expect(good.of('market.markPrice').at(-1)?.price.toFixed()).toBe('100001');
    expect(good.of('account.fill').map((e) => e.fill.clientOrderId)).toEqual(['good-after-failure']);
    expect(world.allOrders().map((o) => o.clientOrderId)).toEqual(['good-after-failure']);
    expect(rig.faulty.count('placeOrder')).toBe(1);
    await rig.stop(false);
  });

  test('a failed strategy can be started again by the operator with a fresh runner', async () => {
    const world = new World();
    let throwOnBook = true;
    const flaky = scripted('flaky', {
      onEvent: (_ctx, event) => {
        if (event.type === 'market.book' && throwOnBook) throw new Error('flaky');
      },
    });
    const rig = new KernelRig(world, { strategies: [flaky] });
    await rig.start();
    world.book([['99999.9', '5']], [['100000', '2']]);
    await rig.settle();
    expect(rig.kernel.strategies.state('flaky')).toBe('failed');

    throwOnBook = false;
    expect(await rig.kernel.strategies.start('flaky')).toBe(true);
    expect(rig.kernel.strategies.state('flaky')).toBe('running');
    flaky.emit(limitBuy('99000', '1', 'again'));
    await rig.settle();
    expect(world.openIds()).toEqual(['flaky-again']);
    await rig.stop(false);
  });

  test('a slow strategy: its market data is conflated and dropped (reported, counted), its account events all arrive in order', async () => {
    const { rig, slow, fast, published, slowMarket } = await slowStrategyFlood();
    expect(published).toHaveLength(40 * 3 + 1);
    expect(fast.seen.filter(isMarketEvent).filter((e) => published.includes(e))).toEqual(published);
    expect(slowMarket.length).toBeLessThan(published.length);
    // Conflation keeps the newest of a kind: the last mark price still arrives.
    expect(slowMarket.filter((e) => e.type === 'market.markPrice').at(-1)?.price.toFixed()).toBe('100039');

    const dropped = rig.of('bus.dropped');
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.every((e) => e.strategyId === 'slow' && e.count > 0)).toBe(true);
    expect(slow.of('bus.dropped')).toEqual(dropped);
    expect(fast.of('bus.dropped')).toEqual([]);
    const total = dropped.reduce((sum, e) => sum + e.count, 0);
    expect(await rig.metric('stratd_bus_dropped_total', { strategy: 'slow' })).toBe(total);

    // Every account event meant for it arrived, in the order the kernel published them.
    const owners = { owns: (clientOrderId: string, strategyId: string): boolean => rig.kernel.executor.ownerOf(clientOrderId) === strategyId };
    // (The strategies start after the start-up reconciliation.)
    const started = rig.events.findIndex((e) => e.type === 'account.resynced') + 1;
    const expected = rig.events.slice(started).filter((e) => isAccountEvent(e) && interestedIn(e, 'slow', new Set([BTC]), owners));
    expect(expected.length).toBeGreaterThan(10);
    expect(slow.seen.filter(isAccountEvent)).toEqual(expected);
    expect(slow.of('account.fill').map((e) => e.fill.clientOrderId)).toEqual(['slow-b1', 'slow-b2', 'slow-b3']);
    expect(slow.of('account.order').filter((e) => e.order.status === 'FILLED').map((e) => e.order.clientOrderId)).toEqual(['slow-b1', 'slow-b2', 'slow-b3']);
    await rig.stop(false);
  });

  /** Drops are reported at most once a second while behind, and the remainder once the queue drains. */
  test('every conflated or dropped market event is counted in stratd_bus_dropped_total', async () => {
    const { rig, published, slowMarket } = await slowStrategyFlood();
    expect(await rig.metric('stratd_bus_dropped_total', { strategy: 'slow' })).toBe(published.length - slowMarket.length);
    await rig.stop(false);
  });
});

/**
 * Two strategies; `slow` rests three bids on start and spends ten virtual seconds on each market event.
 * A flood at one instant: marks and books (conflatable), trades (droppable only), and a print through
 * the three bids in the middle of it. Answers once the slow strategy has worked through its queue.
 */
async function slowStrategyFlood(): Promise<{
  rig: KernelRig;
  slow: TestStrategy;
  fast: TestStrategy;
  published: MarketEvent[];
  slowMarket: MarketEvent[];
}> {
  const world = new World();
  const slow = scripted('slow', {
    onStart: (ctx) => {
      ctx.emit(limitBuy('99000', '1', 'b1'));
      ctx.emit(limitBuy('98990', '1', 'b2'));
      ctx.emit(limitBuy('98980', '1', 'b3'));
    },
    onEvent: async (ctx, event) => {
      if (isMarketEvent(event)) await sleep(ctx.scheduler, 10_000);
    },
  });
  const fast = scripted('fast');
  const rig = new KernelRig(world, { strategies: [slow, fast], runnerLimits: { conflateAbove: 5, dropAt: 20 } });
  await rig.start();
  expect(world.openIds()).toEqual(['slow-b1', 'slow-b2', 'slow-b3']);

  const t = world.clock.now() + 1000;
  world.clock.advanceTo(t);
  const before = rig.events.length;
  for (let i = 0; i < 40; i++) {
    world.mark(String(100000 + i));
    world.book([[String(99990 + i / 10), '5']], [[String(100010 + i / 10), '2']]);
    world.trade(String(100000 + i), '0.1', 'BUY');
    if (i === 20) world.trade('98900', '10', 'SELL');
  }
  expect(world.openOrders()).toEqual([]);
  expect(rig.kernel.status().strategies.find((s) => s.id === 'slow')?.queued).toBeGreaterThan(0);

  await rig.runUntilIdle(10_000);
  const published = rig.events.slice(before).filter(isMarketEvent);
  const slowMarket = slow.seen.filter(isMarketEvent).filter((e) => published.includes(e));
  return { rig, slow, fast, published, slowMarket };
}
