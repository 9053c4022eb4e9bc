import { dec } from '../../../src/core/decimal.js';
import { silentLogger } from '../../../src/core/logger.js';
import { OrderTracker } from '../../../src/engine/execution/order-tracker.js';
import type { PlaceOrderCommand } from '../../../src/model/commands.js';
import type { AlgoKind, AlgoOrderSnapshot, OrderSnapshot } from '../../../src/model/orders.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';

const T0 = 1_767_225_600_000;
const BTC = 'BTC-SWAP-USDT';

/** A strategy's market entry with a take-profit at 103000 and a stop-loss at 97000, filled as order 5001. */
type Journal = ReturnType<ReturnType<typeof StateStore.inMemory>['journal']>;

function trackerWithEntry(strategyId: string, clientOrderId: string, orderId: string, stops: { tp: string; sl: string }): { t: OrderTracker; journal: Journal } {
  const journal = StateStore.inMemory().journal();
  const t = new OrderTracker(journal, { now: () => T0 }, silentLogger);
  track(t, journal, strategyId, clientOrderId, orderId, stops);
  return { t, journal };
}

function track(t: OrderTracker, journal: Journal, strategyId: string, clientOrderId: string, orderId: string, stops: { tp: string; sl: string }): void {
  const command: PlaceOrderCommand = {
    type: 'place-order',
    clientOrderId,
    symbol: BTC,
    side: 'BUY',
    positionSide: 'LONG',
    orderType: 'MARKET',
    quantity: dec(2),
    timeInForce: 'IOC',
    takeProfit: { triggerPrice: dec(stops.tp), triggerBy: 'CONTRACT_PRICE' },
    stopLoss: { triggerPrice: dec(stops.sl), triggerBy: 'CONTRACT_PRICE' },
  };
  journal.append({ id: clientOrderId, strategyId, command, time: T0 });
  t.remember({ id: clientOrderId, strategyId, symbol: BTC, command, state: 'pending' });
  const filled: OrderSnapshot = {
    symbol: BTC,
    orderId,
    clientOrderId,
    side: 'BUY',
    positionSide: 'LONG',
    type: 'MARKET',
    timeInForce: 'IOC',
    price: dec(0),
    quantity: dec(2),
    filledQty: dec(2),
    avgPrice: dec(100000),
    status: 'FILLED',
    updateTime: T0,
  };
  expect(t.applyOrder(filled)).toBe('applied');
}

function row(clientOrderId: string, kind: AlgoKind, trigger: string, parentOrderId?: string): AlgoOrderSnapshot {
  return {
    symbol: BTC,
    orderId: `9${clientOrderId}`,
    clientOrderId,
    kind,
    side: 'SELL',
    positionSide: 'LONG',
    orderType: 'MARKET',
    triggerPrice: dec(trigger),
    triggerBy: 'CONTRACT_PRICE',
    price: dec(0),
    quantity: dec(2),
    status: 'ORDER_NEW',
    ...(parentOrderId === undefined ? {} : { parentOrderId }),
    updateTime: T0 + 1,
  };
}

/** The closing order a triggered TP/SL row created (exchange-generated client id). */
function childOrder(orderId: string): OrderSnapshot {
  return {
    symbol: BTC,
    orderId,
    clientOrderId: `sys-${orderId}`,
    side: 'SELL',
    positionSide: 'LONG',
    type: 'MARKET',
    timeInForce: 'IOC',
    price: dec(0),
    quantity: dec(2),
    filledQty: dec(2),
    avgPrice: dec(97000),
    status: 'FILLED',
    updateTime: T0 + 2,
  };
}

describe('TP/SL rows of attached stops are traced to the order that carried them', () => {
  test('a row first seen triggered brings the order it created along, whichever of the two is seen first', () => {
    const { t, journal } = trackerWithEntry('alpha', 'alpha-entry', '5001', { tp: '103000', sl: '97000' });
    // The row, then its order.
    expect(t.applyAlgo({ ...row('1767000006', 'STOP_LOSS', '97000', '5001'), status: 'ORDER_FILLED', executedOrderId: '7001' })).toBe('applied');
    expect(t.applyOrder(childOrder('7001'))).toBe('applied');
    expect(t.ownerOf('sys-7001')).toBe('alpha');
    expect(journal.get('sys-7001')).toMatchObject({ strategyId: 'alpha', state: 'done' });
    // The order first (unknown, kept as a stray), then its row (a REST row: traced by its trigger price).
    expect(t.applyOrder(childOrder('7002'))).toBe('foreign');
    expect(t.applyAlgo({ ...row('1767000007', 'TAKE_PROFIT', '103000'), status: 'ORDER_FILLED', executedOrderId: '7002' })).toBe('applied');
    expect(t.ownerOf('sys-7002')).toBe('alpha');
    expect(t.strays()).toEqual([]);
    expect(t.linkedChildren()).toEqual([]);
  });

  test('by the parent order id the stream names', () => {
    const { t } = trackerWithEntry('alpha', 'alpha-entry', '5001', { tp: '103000', sl: '97000' });
    expect(t.applyAlgo(row('1767000001', 'STOP_LOSS', '96000', '5001'))).toBe('applied');
    expect(t.ownerOf('1767000001')).toBe('alpha');
    expect(t.applyAlgo(row('1767000002', 'STOP_LOSS', '97000', '4999'))).toBe('foreign');
  });

  test('without a parent id (a REST row): by kind and trigger price of the attached stop, when only one strategy matches', () => {
    const { t, journal } = trackerWithEntry('alpha', 'alpha-entry', '5001', { tp: '103000', sl: '97000' });
    expect(t.applyAlgo(row('1767000003', 'TAKE_PROFIT', '103000'))).toBe('applied');
    expect(t.ownerOf('1767000003')).toBe('alpha');
    expect(t.applyAlgo(row('1767000004', 'TAKE_PROFIT', '97000'))).toBe('foreign');
    // Two strategies with the same stop: ambiguous, so it stays foreign (the orphan policy decides).
    track(t, journal, 'beta', 'beta-entry', '5002', { tp: '104000', sl: '97000' });
    expect(t.applyAlgo(row('1767000005', 'STOP_LOSS', '97000'))).toBe('foreign');
  });
  test('the newest 1000 parent orders are remembered: an older one seen again is remembered again', () => {
    const { t, journal } = trackerWithEntry('beta', 'beta-0', '6000', { tp: '104000', sl: '96000' });
    const command: PlaceOrderCommand = { type: 'place-order', clientOrderId: 'alpha-open', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price: dec(99000), quantity: dec(2), timeInForce: 'GTC' };
    journal.append({ id: 'alpha-open', strategyId: 'alpha', command, time: T0 });
    t.remember({ id: 'alpha-open', strategyId: 'alpha', symbol: BTC, command, state: 'sent' });
    const open: OrderSnapshot = { ...childOrder('5001'), clientOrderId: 'alpha-open', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: dec(99000), filledQty: dec(0), avgPrice: dec(0), status: 'NEW', updateTime: T0 };
    expect(t.applyOrder(open)).toBe('applied');
    for (let i = 1; i <= 1000; i++) track(t, journal, 'beta', `beta-${i}`, String(6000 + i), { tp: '104000', sl: '96000' });
    expect(t.sizes()).toEqual(expect.arrayContaining([{ name: 'tracker.parentOwners', size: 1000, limit: 1000 }]));
    // beta-0 and alpha-open left the table; alpha-open, filled now, is listed again.
    expect(t.applyOrder({ ...open, filledQty: dec(2), avgPrice: dec(99000), status: 'FILLED', updateTime: T0 + 1 })).toBe('applied');
    expect(t.get('alpha-open')).toBeUndefined();
    expect(t.applyAlgo(row('1767000010', 'STOP_LOSS', '97000', '5001'))).toBe('applied');
    expect(t.ownerOf('1767000010')).toBe('alpha');
    expect(t.applyAlgo(row('1767000011', 'STOP_LOSS', '96000', '6000'))).toBe('foreign');
    expect(t.applyAlgo(row('1767000012', 'STOP_LOSS', '96000', '6002'))).toBe('applied');
  });
});
