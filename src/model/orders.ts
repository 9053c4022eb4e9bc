import type { Decimal } from '../core/decimal.js';
import { compareDecimals } from '../core/decimal.js';
import type { PositionSide, Side, TimeInForce, TriggerBy } from './instrument.js';

/** Exchange states of a regular order. */
export type OrderStatus = 'PENDING_NEW' | 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED';

/** Exchange states of a plan or TP/SL order. */
export type AlgoStatus = 'ORDER_NEW' | 'ORDER_FILLED' | 'ORDER_CANCELED' | 'ORDER_REJECTED' | 'ORDER_FAILED' | 'ORDER_NOT_EFFECTIVE';

export function isOpenStatus(status: OrderStatus): boolean {
  return status === 'PENDING_NEW' || status === 'NEW' || status === 'PARTIALLY_FILLED';
}

export function isOpenAlgoStatus(status: AlgoStatus): boolean {
  return status === 'ORDER_NEW';
}

/** A regular order as the exchange last reported it (REST row or user-stream execution report). */
export interface OrderSnapshot {
  readonly symbol: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly type: 'LIMIT' | 'MARKET';
  readonly timeInForce: TimeInForce;
  /** Limit price; zero for market orders where the exchange shows none. */
  readonly price: Decimal;
  /** Contracts. */
  readonly quantity: Decimal;
  readonly filledQty: Decimal;
  readonly avgPrice: Decimal;
  readonly status: OrderStatus;
  /** Exchange time of this state (user-stream `E`, or the row's updateTime): the ordering key. */
  readonly updateTime: number;
}

export type AlgoKind = 'PLAN' | 'TAKE_PROFIT' | 'STOP_LOSS';

export interface TrailingStop {
  /** Price at which tracking starts; absent means active at once. */
  readonly activePrice?: Decimal;
  readonly callbackType: 'RATE' | 'PRICE';
  /** A ratio (RATE, 0.01 = 1%) or a price distance (PRICE). */
  readonly callbackValue: Decimal;
  /** The activation price was reached (activeStatus 1): it tracks the peak now. Absent when not reported. */
  readonly activated?: boolean;
}

/** A plan (conditional) order or a TP/SL order as the exchange last reported it. */
export interface AlgoOrderSnapshot {
  readonly symbol: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly kind: AlgoKind;
  readonly side: Side;
  readonly positionSide: PositionSide;
  /** MARKET after the trigger, or LIMIT at `price`. */
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly triggerPrice: Decimal;
  readonly triggerBy: TriggerBy;
  readonly price: Decimal;
  /** Contracts; zero on a TP/SL that covers the whole position. */
  readonly quantity: Decimal;
  readonly trailing?: TrailingStop;
  readonly status: AlgoStatus;
  /** The regular order created when it triggered. */
  readonly executedOrderId?: string;
  /**
   * A TP/SL row created by the takeProfit/stopLoss attached to a regular order: that order's exchange id
   * (the stream's openOrdinaryOrderId). The row belongs to the strategy that placed that order.
   */
  readonly parentOrderId?: string;
  readonly updateTime: number;
}

/** One execution of one of the account's orders. */
export interface Fill {
  readonly symbol: string;
  readonly tradeId: string;
  readonly orderId: string;
  /** Empty when the source does not carry it (the cache fills it in from the order). */
  readonly clientOrderId: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly price: Decimal;
  readonly qty: Decimal;
  readonly fee: Decimal;
  readonly feeAsset: string;
  readonly isMaker: boolean;
  readonly realizedPnl: Decimal;
  readonly time: number;
}

/** Which progress a snapshot shows: a later snapshot of the same order never goes backwards. */
export function orderProgress(status: OrderStatus): number {
  switch (status) {
    case 'PENDING_NEW':
      return 0;
    case 'NEW':
      return 1;
    case 'PARTIALLY_FILLED':
      return 2;
    case 'FILLED':
    case 'CANCELED':
    case 'REJECTED':
      return 3;
  }
}

/**
 * True when `next` may replace `current`: a newer exchange time wins; at the same time, more progress
 * (a later status or more filled) wins, and so does an amendment (same progress, another price or
 * quantity): the exchange stamps in milliseconds, so an order amended in the millisecond it was placed
 * reports both states with one time, and refusing the later one would keep the old price or quantity
 * for good, even against a reconciliation. A terminal state is never replaced.
 */
export function supersedes(current: OrderSnapshot, next: OrderSnapshot): boolean {
  if (orderProgress(current.status) === 3) return false;
  if (next.updateTime !== current.updateTime) return next.updateTime > current.updateTime;
  const a = orderProgress(current.status);
  const b = orderProgress(next.status);
  if (b !== a) return b > a;
  const filled = compareDecimals(next.filledQty, current.filledQty);
  if (filled !== 0) return filled > 0;
  return compareDecimals(next.quantity, current.quantity) !== 0 || compareDecimals(next.price, current.price) !== 0;
}
