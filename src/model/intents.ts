import type { Decimal } from '../core/decimal.js';
import type { PositionSide, Side, TimeInForce, TriggerBy } from './instrument.js';
import type { TrailingStop } from './orders.js';

/**
 * What a strategy asks for. Intents carry no client order id of the exchange: the executor derives
 * one deterministically from the strategy id and `key` (or a persisted sequence when `key` is absent),
 * so an intent re-emitted after a restart with the same key is recognised, never sent twice.
 * Quantities are contracts; the risk engine quantizes prices to the tick and quantities to the step.
 */

/** TP/SL attached to a new order; it arms when the order opens a position. */
export interface AttachedStopIntent {
  readonly triggerPrice: Decimal;
  readonly triggerBy?: TriggerBy;
  /** Absent: market after the trigger. */
  readonly limitPrice?: Decimal;
}

export interface PlaceIntent {
  readonly type: 'place';
  /** Stable name of this order within the strategy (e.g. "grid-L3-7"); reusing a live key is denied. */
  readonly key?: string;
  readonly symbol: string;
  readonly side: Side;
  /** Hedge-mode side; absent: BUY→LONG, SELL→SHORT, or the opposite when reduceOnly/closePosition. */
  readonly positionSide?: PositionSide;
  readonly orderType: 'LIMIT' | 'MARKET';
  /** Required for LIMIT. */
  readonly price?: Decimal;
  /** Contracts; ignored with closePosition. */
  readonly quantity?: Decimal;
  /** Default GTC for LIMIT, IOC for MARKET. */
  readonly timeInForce?: TimeInForce;
  /** Only reduce the position: the quantity is capped at the position's size. */
  readonly reduceOnly?: boolean;
  /** Close the whole position of `positionSide` (quantity = its size). */
  readonly closePosition?: boolean;
  readonly takeProfit?: AttachedStopIntent;
  readonly stopLoss?: AttachedStopIntent;
}

export interface ModifyIntent {
  readonly type: 'modify';
  readonly clientOrderId: string;
  readonly price?: Decimal;
  readonly quantity?: Decimal;
}

export interface CancelIntent {
  readonly type: 'cancel';
  readonly clientOrderId: string;
}

export interface CancelAllIntent {
  readonly type: 'cancel-all';
  /** Cancels this strategy's regular orders on the symbol (and its plan/TP-SL orders too with `includeAlgo`). */
  readonly symbol: string;
  readonly includeAlgo?: boolean;
}

/** A conditional order: a regular order placed when the trigger price is reached. */
export interface PlanIntent {
  readonly type: 'plan';
  readonly key?: string;
  readonly symbol: string;
  readonly side: Side;
  readonly positionSide?: PositionSide;
  readonly reduceOnly?: boolean;
  readonly triggerPrice: Decimal;
  readonly triggerBy?: TriggerBy;
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly price?: Decimal;
  readonly quantity: Decimal;
  readonly timeInForce?: TimeInForce;
  readonly takeProfit?: AttachedStopIntent;
  readonly stopLoss?: AttachedStopIntent;
}

/**
 * A take-profit or stop-loss on an existing position. Fixed stops become a closing conditional order
 * (v2 algo-order); `trailing` converts the exchange's TP/SL row `clientOrderId` into a trailing stop.
 */
export interface TpSlIntent {
  readonly type: 'tpsl';
  readonly key?: string;
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly kind: 'TAKE_PROFIT' | 'STOP_LOSS';
  readonly triggerPrice: Decimal;
  readonly triggerBy?: TriggerBy;
  readonly limitPrice?: Decimal;
  /** Contracts; absent: the whole position at the time of the check. */
  readonly quantity?: Decimal;
}

export interface ModifyAlgoIntent {
  readonly type: 'modify-algo';
  readonly clientOrderId: string;
  readonly triggerPrice?: Decimal;
  readonly triggerBy?: TriggerBy;
  readonly price?: Decimal;
  readonly quantity?: Decimal;
  /** TP/SL rows only: turn the stop into a trailing stop. */
  readonly trailing?: TrailingStop;
}

export interface CancelAlgoIntent {
  readonly type: 'cancel-algo';
  readonly clientOrderId: string;
}

export type Intent = PlaceIntent | ModifyIntent | CancelIntent | CancelAllIntent | PlanIntent | TpSlIntent | ModifyAlgoIntent | CancelAlgoIntent;
export type IntentType = Intent['type'];
