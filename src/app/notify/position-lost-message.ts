import type { PositionLost } from '../../model/ledger.js';
import type { Notification } from './notification.js';

/** A strategy lost (part of) a position without an own fill: a liquidation, an auto-deleverage, a guard, or unattributed. */
export function positionLostMessage(event: PositionLost): Notification {
  const title = `Position LOST (${event.cause}): ${event.strategyId} ${event.qty.toFixed()} ${event.symbol} ${event.positionSide} @ ${event.price.toFixed()}`;
  const details = [`the strategy's ledger holds ${event.remaining.toFixed()} now`, ...(event.clientOrderId === undefined ? [] : [`closed by order ${event.clientOrderId}`])];
  return {
    event: 'positionLost',
    time: event.time,
    title,
    text: [title, ...details].join('\n'),
    data: {
      strategy: event.strategyId,
      symbol: event.symbol,
      positionSide: event.positionSide,
      cause: event.cause,
      qty: event.qty.toFixed(),
      price: event.price.toFixed(),
      remaining: event.remaining.toFixed(),
      ...(event.clientOrderId === undefined ? {} : { clientOrderId: event.clientOrderId }),
    },
  };
}
