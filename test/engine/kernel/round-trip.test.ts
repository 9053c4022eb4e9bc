import { filter, map, merge, of, take } from 'rxjs';
import { z } from 'zod';
import { defineStreamStrategy } from '../../../src/engine/strategy/api.js';
import type { StrategyInstance } from '../../../src/engine/strategy/instance.js';
import type { BusEvent } from '../../../src/model/bus-events.js';
import type { Intent } from '../../../src/model/intents.js';
import { BTC, closeLong, KernelRig, limitSell, marketBuy, ofType, scripted, World } from './kernel-support.js';

describe('Kernel round trip: intent → risk → executor → engine → events → strategy', () => {
  test('a handler-style strategy places a market order on start; it fills and comes back as its own events', async () => {
    const world = new World();
    const alpha = scripted('alpha', { onStart: (ctx) => ctx.emit(marketBuy('1', 'entry')) });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();

    const id = 'alpha-entry';
    // The engine has exactly this one order, filled.
    expect(world.allOrders().map((o) => [o.clientOrderId, o.status, o.executedQty])).toEqual([[id, 'FILLED', '1']]);
    expect(rig.faulty.count('placeOrder')).toBe(1);

    // The strategy saw its order filled and its fill, and nothing about foreign orders.
    const orders = alpha.of('account.order');
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((e) => e.order.clientOrderId === id)).toBe(true);
    expect(orders.at(-1)?.order.status).toBe('FILLED');
    const fills = alpha.of('account.fill');
    expect(fills.map((e) => [e.fill.clientOrderId, e.fill.side, e.fill.qty.toFixed(), e.fill.price.toFixed()])).toEqual([[id, 'BUY', '1', '100000']]);
    expect(alpha.of('command.submitted').map((e) => e.command.type)).toEqual(['place-order']);
    expect(alpha.of('intent.denied')).toEqual([]);

    // The cache and the journal agree with the engine.
    const position = rig.kernel.cache.position(BTC, 'LONG');
    expect(position?.qty.toFixed()).toBe('1');
    expect(position?.avgPrice.toFixed()).toBe('100000');
    expect(rig.kernel.cache.order(id)?.status).toBe('FILLED');
    expect(world.store.journal().get(id)).toMatchObject({ strategyId: 'alpha', intentKey: 'entry', state: 'done' });
    expect(rig.kernel.status().positions).toEqual([expect.objectContaining({ symbol: BTC, side: 'LONG', qty: '1' })]);

    // Metrics count it, labelled by strategy and symbol.
    expect(await rig.metric('stratd_orders_submitted_total', { strategy: 'alpha', symbol: BTC })).toBe(1);
    expect(await rig.metric('stratd_fills_total', { strategy: 'alpha', symbol: BTC })).toBe(1);
    expect(await rig.metric('stratd_intents_total', { strategy: 'alpha', outcome: 'approved' })).toBe(1);
    await rig.stop(false);
  });

  test('an RxJS-style strategy: events$ → intents$; it enters on the first book and closes once the position shows', async () => {
    const world = new World();
    const seen: BusEvent[] = [];
    const definition = defineStreamStrategy({
      name: 'test-stream',
      description: 'enters at market, closes on the fill',
      params: z.unknown(),
      run: (ctx, events$) => {
        // Not on the fill itself: the position event of the same execution may still be on its way.
        const exits$ = events$.pipe(
          filter((e) => e.type === 'account.position' && e.position.positionSide === 'LONG' && e.position.qty.gt(0) && ctx.cache.position(BTC, 'LONG') !== undefined),
          take(1),
          map((): Intent => closeLong()),
        );
        events$.subscribe((e) => seen.push(e));
        const entry$ = events$.pipe(
          filter((e) => e.type === 'market.book'),
          take(1),
          map((): Intent => marketBuy('2', 'entry')),
        );
        return merge(entry$, exits$);
      },
    });
    const instance: StrategyInstance = { id: 'rx', symbols: [BTC], definition, params: {}, limits: {} };
    const rig = new KernelRig(world, { strategies: [instance] });
    await rig.start();
    expect(world.allOrders()).toEqual([]);
    world.book([['99999.9', '5']], [['100000', '2'], ['100000.1', '3']]);
    await rig.settle();
    const orders = world.allOrders();
    expect(orders.map((o) => [o.side, o.positionSide, o.status, o.executedQty]).sort()).toEqual([
      ['BUY', 'LONG', 'FILLED', '2'],
      ['SELL', 'LONG', 'FILLED', '2'],
    ]);
    expect(orders.every((o) => o.clientOrderId.startsWith('rx-'))).toBe(true);
    // Both fills reached the stream strategy; the position is flat again.
    const fills = ofType(seen, 'account.fill');
    expect(fills.map((e) => [e.fill.side, e.fill.qty.toFixed()])).toEqual([
      ['BUY', '2'],
      ['SELL', '2'],
    ]);
    expect(rig.kernel.cache.position(BTC, 'LONG')?.qty.isZero() ?? true).toBe(true);
    expect(await rig.metric('stratd_orders_submitted_total', { strategy: 'rx', symbol: BTC })).toBe(2);
    expect(await rig.metric('stratd_fills_total', { strategy: 'rx', symbol: BTC })).toBe(2);
    await rig.stop(false);
  });
});

/**
 * Events caused by an intent emitted in onStart (the in-process port answers at once) wait until
 * onStart has returned: each handler finishes before the next event, and a stream strategy is fully
 * subscribed before its first event.
 */
describe('delivery around onStart', () => {
  test('events caused by an intent emitted in onStart reach onEvent only after onStart has returned', async () => {
    const world = new World();
    let inStart = false;
    const nested: string[] = [];
    const alpha = scripted('alpha', {
      onStart: (ctx) => {
        inStart = true;
        ctx.emit(marketBuy('1', 'entry'));
        inStart = false;
      },
      onEvent: (_ctx, event) => {
        if (inStart) nested.push(event.type);
      },
    });
    const rig = new KernelRig(world, { strategies: [alpha] });
    await rig.start();
    expect(alpha.of('account.fill')).toHaveLength(1);
    expect(nested).toEqual([]);
    await rig.stop(false);
  });

  test('a stream strategy that emits on subscription sees the events its own intent caused', async () => {
    const world = new World();
    const definition = defineStreamStrategy({
      name: 'test-stream-eager',
      description: 'enters on subscription, places a take-profit once filled',
      params: z.unknown(),
      run: (ctx, events$) => {
        const entryId = ctx.clientOrderIdFor('entry');
        const afterFill$ = events$.pipe(
          filter((e) => e.type === 'account.fill' && e.fill.clientOrderId === entryId),
          take(1),
          map((): Intent => limitSell('110000', '1', 'after')),
        );
        return merge(of(marketBuy('1', 'entry')), afterFill$);
      },
    });
    const rig = new KernelRig(world, { strategies: [{ id: 'rx', symbols: [BTC], definition, params: {}, limits: {} }] });
    await rig.start();
    expect(world.openIds()).toEqual(['rx-after']);
    await rig.stop(false);
  });
});
