import type { CacheView } from '../../model/cache-view.js';
import type { CancelAlgoCommand, CancelOrderCommand } from '../../model/commands.js';
import type { PositionSide } from '../../model/instrument.js';
import { isOpening } from '../../model/instrument.js';

/**
 * The orders a strategy left to protect or close a position side it no longer holds (after a
 * liquidation): its closing regular orders, TP/SL rows and closing plan orders on that side. Opening
 * orders stay: the strategy decides whether to enter again.
 */
export function orphanedProtection(
  cache: Pick<CacheView, 'openOrders' | 'openAlgoOrders'>,
  owns: (clientOrderId: string) => boolean,
  symbol: string,
  positionSide: PositionSide,
): ReadonlyArray<CancelOrderCommand | CancelAlgoCommand> {
  const out: Array<CancelOrderCommand | CancelAlgoCommand> = [];
  for (const order of cache.openOrders(symbol)) {
    if (order.positionSide !== positionSide || isOpening(order.side, order.positionSide) || !owns(order.clientOrderId)) continue;
    out.push({ type: 'cancel-order', symbol, clientOrderId: order.clientOrderId });
  }
  for (const algo of cache.openAlgoOrders(symbol)) {
    if (algo.positionSide !== positionSide || isOpening(algo.side, algo.positionSide) || !owns(algo.clientOrderId)) continue;
    out.push({ type: 'cancel-algo', symbol, clientOrderId: algo.clientOrderId });
  }
  return out;
}
