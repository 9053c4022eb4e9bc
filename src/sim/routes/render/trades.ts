import type { UserTradeView } from '../../engine/types.js';
import { sideV1Of } from '../wire-vocabulary.js';

/** A v1 user trade (GET /api/v1/futures/userTrades, API-NOTES §4.6): v1 side, isMaker a boolean. */
export function renderTradeV1(view: UserTradeView): Record<string, unknown> {
  return {
    time: String(view.time),
    id: view.id,
    orderId: view.orderId,
    matchOrderId: view.matchOrderId,
    symbol: view.symbol,
    price: view.price,
    qty: view.qty,
    commissionAsset: view.commissionAsset,
    commission: view.commission,
    makerRebate: view.makerRebate,
    type: view.type,
    side: sideV1Of(view.side, view.positionSide),
    realizedPnl: view.realizedPnl,
    ticketId: view.ticketId,
    isMaker: view.isMaker,
  };
}

/** A v2 user trade (document 000, API-NOTES §5.10); matchOrderStrategy 0 (the simulated market is the counterparty). */
export function renderTradeV2(view: UserTradeView): Record<string, unknown> {
  return {
    time: String(view.time),
    createdTime: String(view.time),
    id: view.id,
    orderId: view.orderId,
    matchOrderId: view.matchOrderId,
    matchAccountId: view.matchAccountId,
    accountId: view.accountId,
    symbol: view.symbol,
    price: view.price,
    qty: view.qty,
    commissionAsset: view.commissionAsset,
    commission: view.commission,
    makerRebate: view.makerRebate,
    type: view.type,
    side: view.side,
    positionSide: view.positionSide,
    realizedPnl: view.realizedPnl,
    ticketId: view.ticketId,
    isMaker: view.isMaker,
    matchOrderStrategy: 0,
  };
}
