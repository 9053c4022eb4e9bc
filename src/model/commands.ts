import type { Decimal } from '../core/decimal.js';
import type { PositionSide, Side, TimeInForce, TriggerBy } from './instrument.js';
import type { AlgoKind, TrailingStop } from './orders.js';

/**
 * Commands to the exchange: what the risk engine approved, quantized and fully resolved (explicit
 * position side, client order id, quantity). The ExchangePort turns them into signed v2 calls.
 */

export interface AttachedStop {
  readonly triggerPrice: Decimal;
  readonly triggerBy: TriggerBy;
  readonly limitPrice?: Decimal;
}

export interface PlaceOrderCommand {
  readonly type: 'place-order';
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly orderType: 'LIMIT' | 'MARKET';
  /** Absent for MARKET. */
  readonly price?: Decimal;
  readonly quantity: Decimal;
  readonly timeInForce: TimeInForce;
  readonly takeProfit?: AttachedStop;
  readonly stopLoss?: AttachedStop;
}

export interface ModifyOrderCommand {
  readonly type: 'modify-order';
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly price?: Decimal;
  readonly quantity?: Decimal;
}

export interface CancelOrderCommand {
  readonly type: 'cancel-order';
  readonly symbol: string;
  readonly clientOrderId: string;
}

export interface CancelAllCommand {
  readonly type: 'cancel-all';
  readonly symbol: string;
}

/** A plan (conditional) order: v2 algo-order STOP or STOP_MARKET. A closing one acts as a position stop. */
export interface PlaceAlgoCommand {
  readonly type: 'place-algo';
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly triggerPrice: Decimal;
  readonly triggerBy: TriggerBy;
  readonly price?: Decimal;
  readonly quantity: Decimal;
  readonly timeInForce: TimeInForce;
  readonly takeProfit?: AttachedStop;
  readonly stopLoss?: AttachedStop;
}

export interface ModifyAlgoCommand {
  readonly type: 'modify-algo';
  readonly symbol: string;
  readonly clientOrderId: string;
  /** PLAN rows are v2 STOP, TP/SL rows STOP_PROFIT_LOSS. */
  readonly kind: AlgoKind;
  readonly triggerPrice?: Decimal;
  readonly triggerBy?: TriggerBy;
  readonly price?: Decimal;
  readonly quantity?: Decimal;
  readonly trailing?: TrailingStop;
}

export interface CancelAlgoCommand {
  readonly type: 'cancel-algo';
  readonly symbol: string;
  readonly clientOrderId: string;
}

export type ExchangeCommand =
  | PlaceOrderCommand
  | ModifyOrderCommand
  | CancelOrderCommand
  | CancelAllCommand
  | PlaceAlgoCommand
  | ModifyAlgoCommand
  | CancelAlgoCommand;
