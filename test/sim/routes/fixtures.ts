import { Decimal } from '../../../src/core/decimal.js';
import type { AlgoOrderView, OrderView, TpSlView } from '../../../src/sim/engine/types.js';
import type { ParamSource } from '../../../src/sim/routes/index.js';
import { paramsSource } from '../../../src/sim/routes/index.js';
import type { RequestParams } from '../../../src/sim/server/routing/types.js';

/** Engine views and request parameters for the routes' pure tests. */

export function requestParams(record: Readonly<Record<string, string>>): RequestParams {
  return {
    get: (name) => record[name],
    has: (name) => Object.prototype.hasOwnProperty.call(record, name),
    names: () => Object.keys(record),
  };
}

export function source(record: Readonly<Record<string, string>>): ParamSource {
  return paramsSource(requestParams(record));
}

export function orderView(overrides: Partial<OrderView> = {}): OrderView {
  return {
    orderId: '1001',
    clientOrderId: 'c-1001',
    accountId: '9001',
    userId: '7001',
    category: 'USDT',
    symbol: 'BTC-SWAP-USDT',
    side: 'BUY',
    positionSide: 'LONG',
    isClose: false,
    type: 'LIMIT',
    price: '100000',
    priceType: 'INPUT',
    origQty: '10',
    executedQty: '0',
    avgPrice: '0',
    cumQuote: '0',
    marginLocked: '50',
    leverage: '20',
    marginType: 'CROSS',
    timeInForce: 'GTC',
    status: 'NEW',
    contractMultiplier: '0.001',
    commission: '0',
    commissionAsset: 'USDT',
    realizedPnl: '0',
    time: 1767952799216,
    updateTime: 1767952799300,
    ...overrides,
  };
}

export function planView(overrides: Partial<AlgoOrderView> = {}): AlgoOrderView {
  return {
    orderId: '2001',
    clientOrderId: 'p-2001',
    accountId: '9001',
    userId: '7001',
    category: 'USDT',
    symbol: 'BTC-SWAP-USDT',
    side: 'BUY',
    positionSide: 'LONG',
    isClose: false,
    type: 'STOP',
    price: '101000',
    origQty: '2',
    stopPrice: '100500',
    triggerBy: 'CONTRACT_PRICE',
    timeInForce: 'GTC',
    status: 'ORDER_NEW',
    leverage: '20',
    marginLocked: '10',
    marginType: 'CROSS',
    contractMultiplier: '0.001',
    executedOrderId: '0',
    executedPrice: '0',
    executedQty: '0',
    parentOrderId: '0',
    time: 1767952799216,
    updateTime: 1767952799216,
    ...overrides,
  };
}

export function tpslPart(overrides: Partial<TpSlView> = {}): TpSlView {
  return {
    stopOrderType: 'STOP_LOSS',
    stopType: 'FIXED_STOP',
    planOrderType: 'STOP_LONG_LOSS',
    wholePosition: false,
    activePrice: '0',
    fallbackQuantity: '0',
    activeStatus: 0,
    ...overrides,
  };
}

/** A stop-loss on a long: SELL LONG, market fill by default. */
export function tpslView(overrides: Partial<AlgoOrderView> = {}, tpsl: Partial<TpSlView> = {}): AlgoOrderView {
  return planView({
    orderId: '3001',
    clientOrderId: 's-3001',
    side: 'SELL',
    isClose: true,
    type: 'STOP_PROFIT_LOSS_MARKET',
    price: '0',
    origQty: '1',
    stopPrice: '92000',
    marginLocked: '0',
    tpsl: tpslPart(tpsl),
    ...overrides,
  });
}

/** Decimals as their text, so expectations read like wire values. */
export function plain(value: unknown): unknown {
  if (value instanceof Decimal) return value.toFixed();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}
