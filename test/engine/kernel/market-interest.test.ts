import { EMPTY } from 'rxjs';
import { z } from 'zod';
import { defineStrategy, defineStreamStrategy } from '../../../src/engine/strategy/api.js';
import { dec } from '../../../src/core/decimal.js';
import { HandlerTracker } from '../../../src/backtest/handler-tracker.js';
import { BTC, KernelRig, limitBuy, scripted, T0, World } from './kernel-support.js';

test("a strategy's marketEvents: only those kinds of its market data reach it; the cache, its other events and other strategies are unchanged", async () => {
  const world = new World();
  let markSeen: string | undefined;
  const books = scripted('books', {
    onEvent: (ctx) => {
      markSeen = ctx.cache.markPrice(BTC)?.toFixed();
    },
  }, { marketEvents: ['market.book'] });
  const all = scripted('all');
  const rig = new KernelRig(world, { strategies: [books, all] });
  await rig.start();

  rig.kernel.ingest({ type: 'market.trade', symbol: BTC, time: T0 + 1, tradeId: 't1', price: dec('100'), qty: dec('1'), takerSide: 'BUY' });
  rig.kernel.ingest({ type: 'market.markPrice', symbol: BTC, time: T0 + 2, price: dec('101') });
  rig.kernel.ingest({ type: 'market.book', symbol: BTC, time: T0 + 3, bids: [{ price: dec('99'), qty: dec('1') }], asks: [{ price: dec('102'), qty: dec('1') }] });
  books.emit(limitBuy('90', '1', 'b1'));
  await rig.settle();

  const marketKinds = (seen: readonly { type: string }[]): string[] => seen.map((e) => e.type).filter((t) => t.startsWith('market.'));
  expect(marketKinds(books.seen)).toEqual(['market.book']);
  expect(marketKinds(all.seen)).toEqual(['market.trade', 'market.markPrice', 'market.book']);
  // The cache holds every kind: the mark the strategy did not receive is read at the book.
  expect(markSeen).toBe('101');
  // Events of other kinds than market data still reach it (its intent, denied against the book above).
  expect(books.of('intent.denied').map((e) => e.strategyId)).toEqual(['books']);
  await rig.stop(false);
});

test("a backtest's tracked strategy keeps its definition's marketEvents", () => {
  const tracked = new HandlerTracker().track(scripted('books', {}, { marketEvents: ['market.book', 'market.bookTicker'] }).instance);
  expect(tracked.definition.marketEvents).toEqual(['market.book', 'market.bookTicker']);
});

test("a backtest's tracked strategy declares what its definition declares, in either style (an account-scoped guard stays one)", () => {
  const params = z.object({ size: z.number() });
  const handlers = defineStrategy({ name: 'guard', description: 'd', params, positionScope: 'account', marketEvents: ['market.book'], create: () => ({}) });
  const stream = defineStreamStrategy({ name: 'guard-rx', description: 'd', params, positionScope: 'account', run: () => EMPTY });
  for (const definition of [handlers, stream]) {
    const tracked = new HandlerTracker().track({ id: definition.name, symbols: [BTC], definition, params: { size: 1 }, limits: {} }).definition;
    expect({ style: tracked.style, name: tracked.name, params: tracked.params, positionScope: tracked.positionScope, marketEvents: tracked.marketEvents }).toEqual({
      style: 'handlers',
      name: definition.name,
      params,
      positionScope: 'account',
      marketEvents: definition.marketEvents,
    });
  }
});
