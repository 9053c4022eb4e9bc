import { dec } from '../../core/decimal.js';
import type { AttachedStop, ModifyAlgoCommand, ModifyOrderCommand, PlaceAlgoCommand, PlaceOrderCommand } from '../../model/commands.js';
import type { TrailingStop } from '../../model/orders.js';
import type { PlanOrder, UpdateAlgoOrder } from '../api/algo-orders.js';
import type { UpdateTpSlV1 } from '../api/orders/v1-types.js';
import type { AttachedTpSl, BatchOrderV2, ModifyOrderV2, PlaceOrderV2 } from '../api/orders/v2.js';
import { categoryOf } from './category.js';

/** Model commands → the client's signed request shapes (quantities stay contracts). */

/** POST /api/v2/futures/order, with attached TP/SL. */
export function placeOrderRequest(command: PlaceOrderCommand): PlaceOrderV2 {
  if (hasAttachedStops(command)) return { ...batchLegRequest(command), ...attachedStops(command), category: categoryOf(command.symbol) };
  // An order without TP/SL (every one a tick places): one literal of a fixed shape, no spread of temporaries.
  const { symbol, side, positionSide, orderType: type, clientOrderId: newClientOrderId, quantity, timeInForce } = command;
  const category = categoryOf(symbol);
  return type === 'LIMIT' && command.price !== undefined
    ? { symbol, side, positionSide, type, newClientOrderId, quantity, price: command.price, timeInForce, category }
    : { symbol, side, positionSide, type, newClientOrderId, quantity, timeInForce, category };
}

/** One leg of POST /api/v2/futures/batch-orders (legs carry no TP/SL). */
export function batchLegRequest(command: PlaceOrderCommand): BatchOrderV2 {
  return {
    symbol: command.symbol,
    side: command.side,
    positionSide: command.positionSide,
    type: command.orderType,
    newClientOrderId: command.clientOrderId,
    quantity: command.quantity,
    ...(command.orderType === 'LIMIT' && command.price !== undefined ? { price: command.price } : {}),
    timeInForce: command.timeInForce,
  };
}

export function hasAttachedStops(command: PlaceOrderCommand): boolean {
  return command.takeProfit !== undefined || command.stopLoss !== undefined;
}

/** POST /api/v2/futures/algo-order: STOP (limit after the trigger) or STOP_MARKET. */
export function planRequest(command: PlaceAlgoCommand): PlanOrder {
  return {
    symbol: command.symbol,
    side: command.side,
    positionSide: command.positionSide,
    type: command.orderType === 'LIMIT' ? 'STOP' : 'STOP_MARKET',
    stopPrice: command.triggerPrice,
    newClientOrderId: command.clientOrderId,
    quantity: command.quantity,
    ...(command.orderType === 'LIMIT' && command.price !== undefined ? { price: command.price } : {}),
    timeInForce: command.timeInForce,
    triggerBy: command.triggerBy,
    ...attachedStops(command),
    category: categoryOf(command.symbol),
  };
}

/**
 * POST /api/v2/futures/order/update by origClientOrderId. newClientOrderId repeats the order's own id:
 * omitted, the exchange generates a new one (document 000) and the order would lose its owner.
 */
export function modifyOrderRequest(command: ModifyOrderCommand): ModifyOrderV2 {
  return {
    origClientOrderId: command.clientOrderId,
    newClientOrderId: command.clientOrderId,
    ...(command.price === undefined ? {} : { price: command.price }),
    ...(command.quantity === undefined ? {} : { quantity: command.quantity }),
    category: categoryOf(command.symbol),
  };
}

/** POST /api/v2/futures/algo-order/update: STOP for plan rows, STOP_PROFIT_LOSS for TP/SL rows; keeps the row's client id. */
export function updateAlgoRequest(command: ModifyAlgoCommand): UpdateAlgoOrder {
  return {
    type: command.kind === 'PLAN' ? 'STOP' : 'STOP_PROFIT_LOSS',
    origClientOrderId: command.clientOrderId,
    newClientOrderId: command.clientOrderId,
    ...(command.triggerPrice === undefined ? {} : { stopPrice: command.triggerPrice }),
    ...(command.triggerBy === undefined ? {} : { triggerBy: command.triggerBy }),
    ...(command.price === undefined ? {} : { price: command.price }),
    ...(command.quantity === undefined ? {} : { quantity: command.quantity }),
    category: categoryOf(command.symbol),
  };
}

/**
 * POST /api/v1/futures/order/update with type STOP_PROFIT_LOSS and stopType TRAILING_STOP: the only
 * endpoint that turns a TP/SL row into a trailing stop. stopPrice is mandatory there; 0 keeps the original.
 */
export function trailingUpdateRequest(command: ModifyAlgoCommand, trailing: TrailingStop): UpdateTpSlV1 {
  return {
    type: 'STOP_PROFIT_LOSS',
    origClientOrderId: command.clientOrderId,
    stopPrice: command.triggerPrice ?? dec(0),
    ...(command.triggerBy === undefined ? {} : { triggerBy: command.triggerBy }),
    ...(command.price === undefined ? {} : { price: command.price }),
    ...(command.quantity === undefined ? {} : { quantity: command.quantity }),
    stopType: 'TRAILING_STOP',
    ...(trailing.activePrice === undefined ? {} : { activePrice: trailing.activePrice }),
    fallbackType: trailing.callbackType,
    fallbackQuantity: trailing.callbackValue,
    category: categoryOf(command.symbol),
  };
}

function attachedStops(command: { readonly takeProfit?: AttachedStop; readonly stopLoss?: AttachedStop }): AttachedTpSl {
  const tp = command.takeProfit;
  const sl = command.stopLoss;
  return {
    ...(tp === undefined
      ? {}
      : {
          takeProfit: tp.triggerPrice,
          tpTriggerBy: tp.triggerBy,
          tpOrderType: tp.limitPrice === undefined ? 'MARKET' : 'LIMIT',
          ...(tp.limitPrice === undefined ? {} : { tpLimitPrice: tp.limitPrice }),
        }),
    ...(sl === undefined
      ? {}
      : {
          stopLoss: sl.triggerPrice,
          slTriggerBy: sl.triggerBy,
          slOrderType: sl.limitPrice === undefined ? 'MARKET' : 'LIMIT',
          ...(sl.limitPrice === undefined ? {} : { slLimitPrice: sl.limitPrice }),
        }),
  };
}
