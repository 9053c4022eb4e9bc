import type { AlgoOrderView, OrderView } from '../../engine/types.js';
import type { UpdatedOrder } from '../update/apply.js';

/**
 * A v2 regular order row (document 000, API-NOTES §5.9): ids, times and amounts as strings, side and
 * positionSide separate, type LIMIT or MARKET, contractMultiplier as listed (not padded).
 */
export function renderOrderV2(view: OrderView): Record<string, unknown> {
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
    avgPrice: view.avgPrice,
    marginLocked: view.marginLocked,
    type: view.type,
    side: view.side,
    positionSide: view.positionSide,
    timeInForce: view.timeInForce,
    status: view.status,
    contractMultiplier: view.contractMultiplier,
  };
}

/**
 * A v2 plan or TP/SL row (§5.9): the regular fields plus stopPrice, triggerBy and executedOrderId; TP/SL rows add
 * stopOrderType and stopType, trailing ones activePrice, fallbackType, fallbackQuantity and a NUMERIC
 * activeStatus. Optional fields appear only when they have a value (document 000 v2 wire rule).
 */
export function renderAlgoV2(view: AlgoOrderView): Record<string, unknown> {
  const row: Record<string, unknown> = {
    time: String(view.time),
    updateTime: String(view.updateTime),
    orderId: view.orderId,
    clientOrderId: view.clientOrderId,
    symbol: view.symbol,
    price: view.price,
    leverage: view.leverage,
    origQty: view.origQty,
    executedQty: view.executedQty,
    avgPrice: view.executedPrice,
    marginLocked: view.marginLocked,
    type: view.type,
    side: view.side,
    positionSide: view.positionSide,
    timeInForce: view.timeInForce,
    status: view.status,
    contractMultiplier: view.contractMultiplier,
    stopPrice: view.stopPrice,
    triggerBy: view.triggerBy,
    // The regular order the row created when it triggered ("0" before), as the v1 stop rows carry it.
    executedOrderId: view.executedOrderId,
  };
  const tpsl = view.tpsl;
  if (tpsl === undefined) return row;
  const withType = { ...row, stopOrderType: tpsl.stopOrderType, stopType: tpsl.stopType };
  if (tpsl.stopType !== 'TRAILING_STOP') return withType;
  return {
    ...withType,
    activePrice: tpsl.activePrice,
    ...(tpsl.fallbackType === undefined ? {} : { fallbackType: tpsl.fallbackType }),
    fallbackQuantity: tpsl.fallbackQuantity,
    activeStatus: tpsl.activeStatus,
  };
}

/** The row of a modified order, in the shape of its family. */
export function renderUpdatedV2(updated: UpdatedOrder): Record<string, unknown> {
  return updated.kind === 'order' ? renderOrderV2(updated.view) : renderAlgoV2(updated.view);
}
