import { dec } from '../../src/core/decimal.js';
import { Cache } from '../../src/engine/cache.js';
import { RecentKeys } from '../../src/engine/recent-keys.js';
import type { AlgoOrderSnapshot, OrderSnapshot, OrderStatus } from '../../src/model/orders.js';

const T0 = 1_767_225_600_000;
const MINUTE = 60_000;

function snapshot(id: string, status: OrderStatus, updateTime: number): OrderSnapshot {
  return {
    symbol: 'BTC-SWAP-USDT',
    orderId: `9${id}`,
    clientOrderId: `c${id}`,
    side: 'BUY',
    positionSide: 'LONG',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: dec('100'),
    quantity: dec('1'),
    filledQty: dec(status === 'FILLED' ? '1' : '0'),
    avgPrice: dec('0'),
    status,
    updateTime,
  };
}

function order(cache: Cache, id: string, status: OrderStatus, updateTime: number): boolean {
  return cache.apply({ type: 'account.order', source: 'stream', time: updateTime, order: snapshot(id, status, updateTime) });
}

function fill(cache: Cache, symbol: string, tradeId: string, time: number): boolean {
  return cache.apply({
    type: 'account.fill',
    source: 'stream',
    time,
    fill: { symbol, tradeId, orderId: '1', clientOrderId: 'c1', side: 'BUY', positionSide: 'LONG', price: dec('100'), qty: dec('1'), fee: dec('0'), feeAsset: 'USDT', isMaker: true, realizedPnl: dec('0'), time },
  });
}

function algo(cache: Cache, id: string, status: AlgoOrderSnapshot['status'], updateTime: number): boolean {
  const row: AlgoOrderSnapshot = {
    symbol: 'BTC-SWAP-USDT',
    orderId: `8${id}`,
    clientOrderId: `a${id}`,
    kind: 'PLAN',
    side: 'BUY',
    positionSide: 'LONG',
    orderType: 'MARKET',
    triggerPrice: dec('100'),
    triggerBy: 'CONTRACT_PRICE',
    price: dec('0'),
    quantity: dec('1'),
    status,
    updateTime,
  };
  return cache.apply({ type: 'account.algo', source: 'stream', time: updateTime, order: row });
}

function sizeOf(cache: Cache, name: string): number | undefined {
  return cache.sizes().find((s) => s.name === name)?.size;
}

describe('the cache purges terminal orders by count and by age', () => {
  test('beyond closedOrderHistory the oldest terminal orders go; open ones stay', () => {
    const cache = new Cache({ closedOrderHistory: 2 });
    order(cache, 'open', 'NEW', T0);
    for (const id of ['1', '2', '3']) {
      order(cache, id, 'NEW', T0 + 1);
      order(cache, id, 'CANCELED', T0 + 2);
    }
    expect(cache.order('c1')).toBeUndefined();
    expect(cache.clientOrderIdOf('91')).toBeUndefined();
    expect(cache.order('c3')?.status).toBe('CANCELED');
    expect(cache.order('copen')?.status).toBe('NEW');
    expect(cache.sizes()).toEqual(expect.arrayContaining([{ name: 'cache.orders', size: 3, limit: 3 }, { name: 'cache.closedOrders', size: 2, limit: 2 }]));
  });

  test('a terminal order closed more than closedOrderMaxAgeMs before the newest one goes', () => {
    const cache = new Cache({ closedOrderMaxAgeMs: 10 * MINUTE });
    order(cache, 'old', 'FILLED', T0);
    order(cache, 'mid', 'CANCELED', T0 + 5 * MINUTE);
    order(cache, 'open', 'NEW', T0);
    expect(cache.order('cold')?.status).toBe('FILLED');
    order(cache, 'new', 'CANCELED', T0 + 11 * MINUTE);
    expect(cache.order('cold')).toBeUndefined();
    expect(cache.clientOrderIdOf('9old')).toBeUndefined();
    expect(cache.order('cmid')?.status).toBe('CANCELED');
    expect(cache.order('copen')?.status).toBe('NEW');
    expect(sizeOf(cache, 'cache.closedOrders')).toBe(2);
  });

  test('the default age is 15 minutes', () => {
    const cache = new Cache();
    order(cache, 'a', 'FILLED', T0);
    order(cache, 'b', 'FILLED', T0 + 14 * MINUTE);
    expect(cache.order('ca')).toBeDefined();
    order(cache, 'c', 'FILLED', T0 + 16 * MINUTE);
    expect(cache.order('ca')).toBeUndefined();
  });

  test('finished plan orders go by age too; open ones stay', () => {
    const cache = new Cache({ closedOrderMaxAgeMs: 10 * MINUTE });
    algo(cache, '1', 'ORDER_CANCELED', T0);
    algo(cache, '2', 'ORDER_NEW', T0);
    algo(cache, '3', 'ORDER_FILLED', T0 + 11 * MINUTE);
    expect(cache.algoOrder('a1')).toBeUndefined();
    expect(cache.algoOrder('a2')?.status).toBe('ORDER_NEW');
    expect(cache.algoOrder('a3')?.status).toBe('ORDER_FILLED');
    expect(sizeOf(cache, 'cache.algoOrders')).toBe(2);
  });
});

describe('the cache remembers fill ids per symbol for an hour', () => {
  test('a repeated fill is dropped; an id older than the age (from the symbol\'s newest fill) is forgotten', () => {
    const cache = new Cache({ fillMemoryMaxAgeMs: 10 * MINUTE });
    expect(fill(cache, 'BTC-SWAP-USDT', 't1', T0)).toBe(true);
    expect(fill(cache, 'BTC-SWAP-USDT', 't1', T0)).toBe(false);
    expect(fill(cache, 'ETH-SWAP-USDT', 'e1', T0)).toBe(true);
    expect(fill(cache, 'BTC-SWAP-USDT', 't2', T0 + 11 * MINUTE)).toBe(true);
    expect(sizeOf(cache, 'cache.fillIds')).toBe(2);
    // Another symbol's newest fill is kept however old: the REST resync asks from it again.
    expect(fill(cache, 'ETH-SWAP-USDT', 'e1', T0)).toBe(false);
    expect(fill(cache, 'BTC-SWAP-USDT', 't2', T0 + 11 * MINUTE)).toBe(false);
  });

  test('the count still bounds each symbol', () => {
    const cache = new Cache({ fillMemory: 2 });
    for (const id of ['a', 'b', 'c']) fill(cache, 'BTC-SWAP-USDT', id, T0);
    expect(cache.sizes().find((s) => s.name === 'cache.fillIds')).toEqual({ name: 'cache.fillIds', size: 2, limit: 2 });
    expect(fill(cache, 'BTC-SWAP-USDT', 'a', T0)).toBe(true);
  });
});

describe('the cache counts open orders without listing them', () => {
  test('the counts are the lengths of the open lists, per symbol or all', () => {
    const cache = new Cache();
    order(cache, '1', 'NEW', T0);
    order(cache, '2', 'PARTIALLY_FILLED', T0);
    order(cache, '3', 'FILLED', T0);
    algo(cache, '1', 'ORDER_NEW', T0);
    algo(cache, '2', 'ORDER_CANCELED', T0);
    const symbol = 'BTC-SWAP-USDT';
    expect([cache.openOrderCount(), cache.openOrderCount(symbol), cache.openOrderCount('ETH-SWAP-USDT')]).toEqual([2, 2, 0]);
    expect([cache.openOrders().length, cache.openOrders(symbol).length]).toEqual([2, 2]);
    expect([cache.openAlgoOrderCount(), cache.openAlgoOrderCount(symbol), cache.openAlgoOrderCount('ETH-SWAP-USDT')]).toEqual([1, 1, 0]);
  });
});

describe('RecentKeys', () => {
  test('forgets keys older than a cutoff from the oldest end, and the oldest beyond its capacity', () => {
    const keys = new RecentKeys(3);
    keys.add('a', 1);
    keys.add('b', 2);
    keys.add('c', 3);
    expect(keys.oldest()).toBe('a');
    expect(keys.push('d', 4)).toBe('a');
    expect(keys.forgetBefore(3)).toBe(1);
    expect([keys.has('b'), keys.has('c'), keys.has('d')]).toEqual([false, true, true]);
    expect(keys.delete('c')).toBe(true);
    expect(keys.size).toBe(1);
    expect(keys.limit).toBe(3);
  });

  test('a key without a time counts as older than any cutoff', () => {
    const keys = new RecentKeys(10);
    keys.add('x');
    expect(keys.forgetBefore(Number.MAX_SAFE_INTEGER)).toBe(1);
    keys.add('y', 5);
    expect(keys.forgetBefore(5)).toBe(0);
  });
});
