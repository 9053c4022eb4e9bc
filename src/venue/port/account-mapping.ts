import type { Balance, Position } from '../../model/account.js';
import type { Fill } from '../../model/orders.js';
import type { FuturesBalance, Position as WirePosition } from '../parsers/account.js';
import type { UserTradeV2 } from '../parsers/order-v2.js';

/** Account rows → model values. Rows without a time of their own take the fetch time. */

export function toPosition(row: WirePosition, fetchedAt: number): Position {
  return {
    symbol: row.symbol,
    positionSide: row.side,
    qty: row.position.abs(),
    avgPrice: row.avgPrice,
    leverage: row.leverage,
    margin: row.margin,
    unrealizedPnl: row.unrealizedPnL,
    realizedPnl: row.realizedPnL,
    ...(row.flp === undefined || row.flp.lte(0) ? {} : { liquidationPrice: row.flp }),
    ...(row.markPrice === undefined ? {} : { markPrice: row.markPrice }),
    updateTime: fetchedAt,
  };
}

export function toBalance(row: FuturesBalance, fetchedAt: number): Balance {
  return {
    asset: row.coin,
    walletBalance: row.balance,
    availableBalance: row.availableBalance,
    lockedMargin: row.positionMargin.add(row.orderMargin),
    unrealizedPnl: row.crossUnRealizedPnl,
    updateTime: fetchedAt,
  };
}

/** A v2 user trade; it does not carry the client order id (the cache fills it in). */
export function toFill(row: UserTradeV2): Fill {
  return {
    symbol: row.symbol,
    // The user stream names a fill by its ticket id (`T`): the same key lets the cache drop the repeat.
    tradeId: row.ticketId ?? row.id,
    orderId: row.orderId,
    clientOrderId: '',
    side: row.side,
    positionSide: row.positionSide,
    price: row.price,
    qty: row.qty,
    fee: row.commission,
    feeAsset: row.commissionAsset,
    isMaker: row.isMaker,
    realizedPnl: row.realizedPnl,
    time: row.time,
  };
}
