import type { AccountEvent } from '../../../src/sim/engine/types.js';
import { orderSnapshotOf, orderSnapshotOfEvent, orderSnapshotOfMoment, positionOf, positionOfEvent } from '../../../src/sim/port/snapshots.js';
import { ACCOUNT, d, engine, mark, order, standardBook, T0, trade } from '../engine/engine-support.js';

/** Decimals as their text, so equal values compare equal whatever object holds them. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** Opens, partly fills, moves the mark, closes part, cancels: order, trade, position and balance events of every kind. */
function scenario(): { readonly events: AccountEvent[]; readonly textAtEmit: string[] } {
  // A small wallet: the long has a liquidation price.
  const { ex } = engine('100');
  standardBook(ex);
  const events: AccountEvent[] = [];
  const textAtEmit: string[] = [];
  // The user stream's way: the text read as the event is emitted, before the records change again.
  ex.onAccountEvent((event) => {
    events.push(event);
    textAtEmit.push(JSON.stringify(event.type === 'order' ? [event.order, event.fill] : event.type === 'position' ? event.position : event.type === 'balance' ? [event.free, event.locked] : event));
  });
  const results = [
    ex.placeOrder(ACCOUNT, order({ side: 'BUY', type: 'MARKET', priceType: 'MARKET', quantity: d('3'), timeInForce: 'IOC' })),
    ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('99999.8'), quantity: d('4') })),
  ];
  ex.advanceTo(T0 + 1_000);
  trade(ex, T0 + 1_000, '99999.8', '12', true);
  mark(ex, T0 + 2_000, '100100.3');
  results.push(ex.placeOrder(ACCOUNT, order({ side: 'SELL', positionSide: 'LONG', price: d('99999.9'), quantity: d('1.5') })));
  results.push(ex.placeOrder(ACCOUNT, order({ side: 'SELL', positionSide: 'LONG', price: d('100500'), quantity: d('1') })));
  for (const result of results) if (!result.ok) throw new Error(result.error.msg);
  const resting = ex.openOrders(ACCOUNT, { limit: 10 });
  for (const o of resting) {
    const canceled = ex.cancelOrder(ACCOUNT, { orderId: o.orderId });
    if (!canceled.ok) throw new Error(canceled.error.msg);
  }
  mark(ex, T0 + 3_000, '99000');
  return { events, textAtEmit };
}

describe('account events from the engine\'s moments', () => {
  test('the port maps a moment to the same snapshot as the view\'s text, and a view read late shows its moment', () => {
    const { events, textAtEmit } = scenario();
    const kinds = new Set(events.map((e) => e.type));
    expect([...kinds].sort()).toEqual(['balance', 'order', 'position', 'trade']);
    expect(events.filter((e) => e.type === 'order' && e.fill !== undefined).length).toBeGreaterThanOrEqual(3);
    events.forEach((event, i) => {
      // Read now, after every later change of the records: still the text of the moment it was emitted.
      const late = JSON.stringify(event.type === 'order' ? [event.order, event.fill] : event.type === 'position' ? event.position : event.type === 'balance' ? [event.free, event.locked] : event);
      expect(late).toBe(textAtEmit[i]);
      if (event.type === 'order') expect(plain(orderSnapshotOfEvent(event))).toEqual(plain(orderSnapshotOf(event.order, event.time)));
      if (event.type === 'position') expect(plain(positionOfEvent(event))).toEqual(plain(positionOf(event.position, event.time)));
    });
    const positions = events.filter((e) => e.type === 'position').map((e) => (e.type === 'position' ? positionOfEvent(e) : undefined));
    expect(positions.some((p) => p?.liquidationPrice !== undefined && p.markPrice !== undefined && !p.unrealizedPnl.isZero())).toBe(true);
  });

  test('a place or cancel answered as a moment is the answer the view gives', () => {
    const { ex } = engine();
    standardBook(ex);
    const placed = ex.placeOrderMoment(ACCOUNT, order({ side: 'BUY', price: d('100000.1'), quantity: d('6') }));
    if (!placed.ok) throw new Error(placed.error.msg);
    const view = ex.getOrder(ACCOUNT, { orderId: placed.value.record.orderId });
    if (!view.ok) throw new Error(view.error.msg);
    expect(placed.value.status).toBe('PARTIALLY_FILLED');
    expect(plain(orderSnapshotOfMoment(placed.value, placed.value.updateTime))).toEqual(plain(orderSnapshotOf(view.value)));
    const canceled = ex.cancelOrderMoment(ACCOUNT, { orderId: placed.value.record.orderId });
    if (!canceled.ok) throw new Error(canceled.error.msg);
    const after = ex.getOrder(ACCOUNT, { orderId: placed.value.record.orderId });
    if (!after.ok) throw new Error(after.error.msg);
    expect(plain(orderSnapshotOfMoment(canceled.value, canceled.value.updateTime))).toEqual(plain(orderSnapshotOf(after.value)));
    expect(after.value.status).toBe('CANCELED');
    expect(ex.cancelOrderMoment(ACCOUNT, { orderId: placed.value.record.orderId })).toMatchObject({ ok: false });
  });
});
