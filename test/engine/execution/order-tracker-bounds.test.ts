import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import { OrderTracker } from '../../../src/engine/execution/order-tracker.js';
import type { PlaceAlgoCommand } from '../../../src/model/commands.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../../../src/model/orders.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';

const T0 = 1_767_225_600_000;
const MINUTE = 60_000;
const BTC = 'BTC-SWAP-USDT';

function tracker(journal = StateStore.inMemory().journal()): OrderTracker {
  return new OrderTracker(journal, { now: () => T0 }, silentLogger);
}

/** An order nobody journaled (a plan row's child whose row has not reported it yet). */
function unknownOrder(orderId: string, updateTime: number): OrderSnapshot {
  return {
    symbol: BTC,
    orderId,
    clientOrderId: `x${orderId}`,
    side: 'BUY',
    positionSide: 'LONG',
    type: 'MARKET',
    timeInForce: 'IOC',
    price: dec('0'),
    quantity: dec('1'),
    filledQty: dec('1'),
    avgPrice: dec('100'),
    status: 'FILLED',
    updateTime,
  };
}

function size(t: OrderTracker, name: string): number | undefined {
  return t.sizes().find((s) => s.name === name)?.size;
}

describe('the order tracker bounds what waits for a plan row', () => {
  test('unknown snapshots wait at most an hour (exchange time) and at most 1000 of them', () => {
    const t = tracker();
    expect(t.applyOrder(unknownOrder('1', T0))).toBe('foreign');
    expect(t.applyOrder(unknownOrder('2', T0 + 30 * MINUTE))).toBe('foreign');
    expect(size(t, 'tracker.strays')).toBe(2);
    t.applyOrder(unknownOrder('3', T0 + 61 * MINUTE));
    expect(size(t, 'tracker.strays')).toBe(2);
    for (let i = 0; i < 1100; i++) t.applyOrder(unknownOrder(String(100 + i), T0 + 62 * MINUTE));
    expect(t.sizes()).toEqual(expect.arrayContaining([{ name: 'tracker.strays', size: 1000, limit: 1000 }]));
  });

  test('plan-row children whose snapshot never comes are forgotten beyond 1000', () => {
    const t = tracker();
    const command: PlaceAlgoCommand = {
      type: 'place-algo',
      clientOrderId: 'p1',
      symbol: BTC,
      side: 'BUY',
      positionSide: 'LONG',
      orderType: 'MARKET',
      triggerPrice: dec('100'),
      triggerBy: 'CONTRACT_PRICE',
      quantity: dec('1'),
      timeInForce: 'GTC',
    };
    t.remember({ id: 'p1', strategyId: 's', symbol: BTC, command, state: 'accepted' });
    const row = (executedOrderId: string, updateTime: number): AlgoOrderSnapshot => ({
      symbol: BTC,
      orderId: '7001',
      clientOrderId: 'p1',
      kind: 'PLAN',
      side: 'BUY',
      positionSide: 'LONG',
      orderType: 'MARKET',
      triggerPrice: dec('100'),
      triggerBy: 'CONTRACT_PRICE',
      price: dec('0'),
      quantity: dec('1'),
      status: 'ORDER_NEW',
      executedOrderId,
      updateTime,
    });
    for (let i = 0; i < 1200; i++) t.applyAlgo(row(String(5000 + i), T0 + i));
    expect(t.sizes()).toEqual(expect.arrayContaining([{ name: 'tracker.childOwners', size: 1000, limit: 1000 }]));
    // A child that does arrive is adopted for the row's strategy and leaves the table.
    expect(t.applyOrder({ ...unknownOrder('6199', T0 + 2000), clientOrderId: 'child' })).toBe('applied');
    expect(t.ownerOf('child')).toBe('s');
    expect(size(t, 'tracker.childOwners')).toBe(999);
    expect(size(t, 'tracker.live')).toBe(1);
  });

  test('a stale open snapshot of our own finished order is not adopted as a live order', () => {
    // A reconciliation lists open orders, the order fills while the reply is on its way: the list is stale.
    const journal = StateStore.inMemory().journal();
    const t = tracker(journal);
    const order = { ...unknownOrder('42', T0), clientOrderId: 'mine', status: 'NEW' as const, filledQty: dec('0') };
    journal.append({ id: 'mine', strategyId: 's', command: { type: 'place-order', clientOrderId: 'mine', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price: dec('100'), quantity: dec('1'), timeInForce: 'GTC' }, time: T0 });
    journal.update('mine', { state: 'done', time: T0 + 5, exchangeOrderId: '42' });
    expect(t.adopt('s', order).phase).toBe('done');
    expect(t.get('mine')).toBeUndefined();
    expect(t.openOf('s')).toEqual([]);
    expect(size(t, 'tracker.live')).toBe(0);
    expect(journal.get('mine')?.state).toBe('done');
  });
  test("a settled order's owner is the journal's: gone with its purged entry, and not an adopter's under a reused id", () => {
    const journal = StateStore.inMemory().journal();
    let now = T0;
    const t = new OrderTracker(journal, { now: () => now }, silentLogger);
    const command = { type: 'place-order' as const, clientOrderId: 'mine', symbol: BTC, side: 'BUY' as const, positionSide: 'LONG' as const, orderType: 'MARKET' as const, quantity: dec('1'), timeInForce: 'IOC' as const };
    journal.append({ id: 'mine', strategyId: 's', command, time: T0 });
    t.remember({ id: 'mine', strategyId: 's', symbol: BTC, command, state: 'sent' });
    expect(t.applyOrder({ ...unknownOrder('42', T0), clientOrderId: 'mine' })).toBe('applied');
    expect(t.ownerOf('mine')).toBe('s');
    now = T0 + 10 * MINUTE;
    expect(journal.purgeSettled(now)).toBe(1);
    expect(t.ownerOf('mine')).toBeUndefined();
    // An open order adopted for another strategy under a journaled id: tracked in memory only while open.
    journal.append({ id: 'reused', strategyId: 's', command: { ...command, clientOrderId: 'reused' }, time: now });
    journal.update('reused', { state: 'rejected', time: now });
    t.adopt('other', { ...unknownOrder('43', now), clientOrderId: 'reused', status: 'NEW', filledQty: dec('0') });
    expect(t.ownerOf('reused')).toBe('other');
    expect(t.applyOrder({ ...unknownOrder('43', now + 1), clientOrderId: 'reused' })).toBe('applied');
    expect(t.ownerOf('reused')).toBe('s');
  });
});
