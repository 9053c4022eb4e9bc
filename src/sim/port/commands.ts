import type { AttachedStop as ModelStop, ModifyAlgoCommand, ModifyOrderCommand, PlaceAlgoCommand, PlaceOrderCommand } from '../../model/commands.js';
import type { AttachedStop, PlaceOrderCommand as SimPlaceOrder, PlacePlanCommand } from '../engine/types.js';
import type { UpdateRequest } from '../routes/update/request.js';

/**
 * Kernel commands as the engine's, read the way the v2 routes read their wire parameters
 * (create-rules.ts, update/request.ts), so the in-process port and `stratd sim` behave alike.
 */

function stopOf(stop: ModelStop): AttachedStop {
  return stop.limitPrice === undefined
    ? { triggerPrice: stop.triggerPrice, triggerBy: stop.triggerBy, orderType: 'MARKET' }
    : { triggerPrice: stop.triggerPrice, triggerBy: stop.triggerBy, orderType: 'LIMIT', limitPrice: stop.limitPrice };
}

function stopsOf(command: { readonly takeProfit?: ModelStop; readonly stopLoss?: ModelStop }): { takeProfit?: AttachedStop; stopLoss?: AttachedStop } {
  return {
    ...(command.takeProfit === undefined ? {} : { takeProfit: stopOf(command.takeProfit) }),
    ...(command.stopLoss === undefined ? {} : { stopLoss: stopOf(command.stopLoss) }),
  };
}

/** POST /api/v2/futures/order: LIMIT at `price`, or MARKET (no price, IOC). */
export function simPlaceOrder(command: PlaceOrderCommand): SimPlaceOrder {
  const limit = command.orderType === 'LIMIT';
  const price = limit ? command.price : undefined;
  const { takeProfit, stopLoss } = command;
  // Without stops and with a price (every order a quoting strategy places): one literal, no spread of a temporary.
  if (takeProfit === undefined && stopLoss === undefined && price !== undefined) {
    return { symbol: command.symbol, side: command.side, positionSide: command.positionSide, type: command.orderType, quantity: command.quantity, price, priceType: 'INPUT', timeInForce: command.timeInForce, clientOrderId: command.clientOrderId, generation: 'v2' };
  }
  return {
    symbol: command.symbol,
    side: command.side,
    positionSide: command.positionSide,
    type: command.orderType,
    quantity: command.quantity,
    ...(price === undefined ? {} : { price }),
    priceType: limit ? 'INPUT' : 'MARKET',
    timeInForce: limit ? command.timeInForce : 'IOC',
    clientOrderId: command.clientOrderId,
    ...stopsOf(command),
    generation: 'v2',
  };
}

/** POST /api/v2/futures/algo-order: STOP (limit at `price` after the trigger) or STOP_MARKET. */
export function simPlacePlan(command: PlaceAlgoCommand): PlacePlanCommand {
  const limit = command.orderType === 'LIMIT';
  return {
    symbol: command.symbol,
    side: command.side,
    positionSide: command.positionSide,
    type: limit ? 'STOP' : 'STOP_MARKET',
    stopPrice: command.triggerPrice,
    triggerBy: command.triggerBy,
    quantity: command.quantity,
    ...(limit && command.price !== undefined ? { price: command.price } : {}),
    timeInForce: command.timeInForce,
    clientOrderId: command.clientOrderId,
    ...stopsOf(command),
  };
}

/** POST /api/v2/futures/order/update: omitted values keep the original; `quantity` is the new unfilled quantity. */
export function orderUpdateOf(command: ModifyOrderCommand): UpdateRequest {
  return {
    type: 'LIMIT',
    ref: { clientOrderId: command.clientOrderId },
    // As the venue client sends it: the order keeps its client id (omitted, the exchange generates one).
    newClientOrderId: command.clientOrderId,
    ...(command.price === undefined ? {} : { price: command.price }),
    ...(command.quantity === undefined ? {} : { quantity: command.quantity }),
  };
}

/** POST /api/v2/futures/algo-order/update: STOP for plan rows, STOP_PROFIT_LOSS for TP/SL rows (with trailing). */
export function algoUpdateOf(command: ModifyAlgoCommand): UpdateRequest {
  const trailing = command.trailing;
  return {
    type: command.kind === 'PLAN' ? 'STOP' : 'STOP_PROFIT_LOSS',
    ref: { clientOrderId: command.clientOrderId },
    newClientOrderId: command.clientOrderId,
    ...(command.quantity === undefined ? {} : { quantity: command.quantity }),
    ...(command.price === undefined || !command.price.gt(0) ? {} : { price: command.price, priceType: 'INPUT' as const }),
    ...(command.triggerPrice === undefined ? {} : { stopPrice: command.triggerPrice }),
    ...(command.triggerBy === undefined ? {} : { triggerBy: command.triggerBy }),
    ...(trailing === undefined
      ? {}
      : {
          stopType: 'TRAILING_STOP' as const,
          ...(trailing.activePrice === undefined ? {} : { activePrice: trailing.activePrice }),
          fallbackType: trailing.callbackType,
          fallbackQuantity: trailing.callbackValue,
        }),
  };
}
