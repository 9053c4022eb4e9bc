import type { Decimal } from '../../../core/decimal.js';
import type { Category, FallbackType, SideV1, StopType, TimeInForce, TriggerBy } from '../../../protocol/wire-enums.js';
import type { AttachedTpSl } from './v2.js';

/** Request shapes of the generation v1 order endpoints (`/api/v1/futures`). */

/** INPUT: at the given price (default); MARKET: a market order is type LIMIT + priceType MARKET. */
export type PriceTypeInput = 'INPUT' | 'MARKET';

export interface CreateOrderV1 extends AttachedTpSl {
  readonly symbol: string;
  readonly side: SideV1;
  readonly type: 'LIMIT' | 'STOP';
  /** Contracts, a positive whole number (LONG). */
  readonly quantity: Decimal;
  /** Order value in USDT (LONG); `quantity` wins when both are sent. */
  readonly valueQuantity?: Decimal;
  /** Required for LIMIT with priceType INPUT. */
  readonly price?: Decimal;
  readonly priceType?: PriceTypeInput;
  /** Required for STOP. */
  readonly stopPrice?: Decimal;
  /** LIMIT orders only. */
  readonly timeInForce?: TimeInForce;
  readonly newClientOrderId: string;
  readonly category?: Category;
}

/** A batch leg carries only the fields the spec lists for batchOrders (no stopPrice, no TP/SL). */
export interface BatchOrderV1 extends Omit<CreateOrderV1, 'type' | 'stopPrice' | 'category' | keyof AttachedTpSl> {
  readonly type: 'LIMIT';
}

/** orderId and origClientOrderId: at least one; when both are sent the service uses orderId. */
export interface OrderRefV1 {
  readonly orderId?: string;
  readonly origClientOrderId?: string;
  readonly category?: Category;
}

export interface OrderQueryV1 extends OrderRefV1 {
  /** LIMIT (service default) answers a regular order; STOP a stop or TP/SL order. */
  readonly type?: 'LIMIT' | 'STOP';
}

export interface CancelQueryV1 extends OrderQueryV1 {
  readonly symbol?: string;
}

export interface OpenOrdersQueryV1 {
  readonly symbol?: string;
  /** Cursor: answers ids below it. */
  readonly orderId?: string;
  readonly type?: 'LIMIT' | 'STOP';
  readonly limit?: number;
  readonly category?: Category;
}

/** historyOrders (API-NOTES §4.5): as openOrders, plus a time range (default: three days back). */
export interface HistoryQueryV1 extends OpenOrdersQueryV1 {
  readonly startTime?: number;
  readonly endTime?: number;
}

interface UpdateBaseV1 extends OrderRefV1 {
  readonly quantity?: Decimal;
  readonly valueQuantity?: Decimal;
  readonly priceType?: PriceTypeInput;
  /** Omitted or 0 with INPUT keeps the original price (rule 9). */
  readonly price?: Decimal;
  /** Rule 4: side and symbol come from the original order and are never sent. */
  readonly side?: never;
  readonly symbol?: never;
}

export interface UpdateLimitV1 extends UpdateBaseV1 {
  readonly type: 'LIMIT';
  readonly newClientOrderId?: string;
}

export interface UpdateStopV1 extends UpdateBaseV1 {
  readonly type: 'STOP';
  readonly newClientOrderId?: string;
  /** 0 keeps the original (rule 2). */
  readonly stopPrice?: Decimal;
  readonly triggerBy?: TriggerBy;
}

/** One take-profit or stop-loss order per call; newClientOrderId is ignored by the service, so absent. */
export interface UpdateTpSlV1 extends UpdateBaseV1 {
  readonly type: 'STOP_PROFIT_LOSS';
  readonly stopPrice: Decimal;
  readonly triggerBy?: TriggerBy;
  readonly stopType?: StopType;
  readonly activePrice?: Decimal;
  readonly fallbackType?: FallbackType;
  readonly fallbackQuantity?: Decimal;
}

export type UpdateOrderV1 = UpdateLimitV1 | UpdateStopV1 | UpdateTpSlV1;
