import type { PlaceAlgoCommand, PlaceOrderCommand } from '../../model/commands.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../../model/orders.js';

/**
 * The place command that would have produced an order the journal did not know (adopted at
 * reconciliation, or created by a triggered plan order): journaled so that ownership survives restarts.
 */
export function placeCommandOf(order: OrderSnapshot): PlaceOrderCommand {
  return {
    type: 'place-order',
    clientOrderId: order.clientOrderId,
    symbol: order.symbol,
    side: order.side,
    positionSide: order.positionSide,
    orderType: order.type,
    ...(order.type === 'LIMIT' ? { price: order.price } : {}),
    quantity: order.quantity,
    timeInForce: order.timeInForce,
  };
}

/** Snapshots carry no time in force: plan orders rest GTC. */
export function algoCommandOf(order: AlgoOrderSnapshot): PlaceAlgoCommand {
  return {
    type: 'place-algo',
    clientOrderId: order.clientOrderId,
    symbol: order.symbol,
    side: order.side,
    positionSide: order.positionSide,
    orderType: order.orderType,
    triggerPrice: order.triggerPrice,
    triggerBy: order.triggerBy,
    ...(order.orderType === 'LIMIT' ? { price: order.price } : {}),
    quantity: order.quantity,
    timeInForce: 'GTC',
  };
}
