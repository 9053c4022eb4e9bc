import { dec } from '../../../core/decimal.js';
import type { AlgoOrderView, FallbackType, OrderView } from '../../engine/types.js';
import { sideV1Of } from '../wire-vocabulary.js';

/** Order answers pad the multiplier to 8 decimals ("0.01000000"); exchangeInfo does not (API-NOTES §6.2). */
export function paddedMultiplier(text: string): string {
  const value = dec(text);
  return value.toFixed(Math.max(8, value.decimalPlaces()));
}

export interface V1RowOptions {
  /** Create and modify answers carry contractMultiplier; queries, cancels, lists and batch legs omit it (§5.7). */
  readonly withMultiplier: boolean;
}

/**
 * A v1 regular order row (document 000, API-NOTES §4.4, §5.7): strings everywhere, side from side +
 * positionSide (§6.3), type LIMIT for limit and market alike (a market order is priceType MARKET at
 * its protective price), the executeQty twin, and triggerType/fallType/activeStatus "0" (§6.5 RULE).
 */
export function renderOrderV1(view: OrderView, options: V1RowOptions): Record<string, unknown> {
  return {
    time: String(view.time),
    updateTime: String(view.updateTime),
    orderId: view.orderId,
    clientOrderId: view.clientOrderId,
    symbol: view.symbol,
    price: view.price,
    leverage: view.leverage,
    origQty: view.origQty,
    executedQty: view.executedQty,
    executeQty: view.executedQty,
    avgPrice: view.avgPrice,
    marginLocked: view.marginLocked,
    type: 'LIMIT',
    side: sideV1Of(view.side, view.positionSide),
    timeInForce: view.timeInForce,
    status: view.status,
    priceType: view.priceType,
    ...(options.withMultiplier ? { contractMultiplier: paddedMultiplier(view.contractMultiplier) } : {}),
    triggerType: '0',
    fallType: '0',
    activeStatus: '0',
  };
}

/** v1 TP/SL fallType: 0 none, 1 RATE, 2 PRICE (document 000; the stream's planExecutionReport differs). */
function fallTypeOf(fallbackType: FallbackType | undefined): string {
  if (fallbackType === undefined) return '0';
  return fallbackType === 'RATE' ? '1' : '2';
}

/**
 * A v1 stop (type STOP, orderType STOP_COMMON) or TP/SL (type STOP_PROFIT_LOSS) row: the spec's field
 * lists with integer fields as strings (§6.5 RULE), plus the regular row's fields (updateTime,
 * executedQty, avgPrice, marginLocked, timeInForce) so a client reading either shape finds its keys.
 * price is 0 for a market fill; executedOrderId 0 until triggered.
 */
export function renderAlgoV1(view: AlgoOrderView, options: V1RowOptions): Record<string, unknown> {
  const isPlan = view.type === 'STOP' || view.type === 'STOP_MARKET';
  const market = view.type === 'STOP_MARKET' || view.type === 'STOP_PROFIT_LOSS_MARKET';
  const row: Record<string, unknown> = {
    time: String(view.time),
    updateTime: String(view.updateTime),
    orderId: view.orderId,
    accountId: view.accountId,
    clientOrderId: view.clientOrderId,
    symbol: view.symbol,
    price: view.price,
    leverage: view.leverage,
    origQty: view.origQty,
    executedQty: view.executedQty,
    executeQty: view.executedQty,
    avgPrice: view.executedPrice,
    marginLocked: view.marginLocked,
    executedOrderId: view.executedOrderId,
    type: isPlan ? 'STOP' : 'STOP_PROFIT_LOSS',
    side: sideV1Of(view.side, view.positionSide),
    timeInForce: view.timeInForce,
    status: view.status,
    priceType: market ? 'MARKET' : 'INPUT',
    stopPrice: view.stopPrice,
    triggerBy: view.triggerBy,
    ...(options.withMultiplier ? { contractMultiplier: paddedMultiplier(view.contractMultiplier) } : {}),
  };
  const tpsl = view.tpsl;
  if (isPlan || tpsl === undefined) return { ...row, triggerType: '0', orderType: 'STOP_COMMON' };
  const trailing = tpsl.stopType === 'TRAILING_STOP';
  return {
    ...row,
    triggerType: trailing ? '1' : '0',
    activePrice: trailing ? tpsl.activePrice : '0',
    fallType: trailing ? fallTypeOf(tpsl.fallbackType) : '0',
    fallQuantity: trailing ? tpsl.fallbackQuantity : '0',
    activeStatus: String(tpsl.activeStatus),
    orderType: tpsl.planOrderType,
  };
}
