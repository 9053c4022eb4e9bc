import type { Decimal } from '../../core/decimal.js';
import { orderedParams } from '../../core/ordered-params.js';
import type { Result } from '../../core/result.js';
import { err } from '../../core/result.js';
import { callParsed } from '../call-parsed.js';
import { ENDPOINTS, endpointLabel } from '../endpoints.js';
import type { EndpointDef } from '../endpoints.js';
import {
  batchResultV1Schema,
  conditionalOrderV1ListSchema,
  conditionalOrderV1Schema,
  regularOrderV1ListSchema,
  regularOrderV1Schema,
  stopOrderV1Schema,
  tpSlOrderV1Schema,
} from '../parsers/order-v1.js';
import type { BatchLegV1, ConditionalOrderV1, OrderV1, RegularOrderV1, StopOrderV1, TpSlOrderV1 } from '../parsers/order-v1.js';
import type { RestTransport } from '../rest-transport.js';
import type { Check } from '../validate.js';
import { firstViolation, limitInRange, positive, requireText } from '../validate.js';
import { invalidRequest } from '../venue-error.js';
import type { VenueError } from '../venue-error.js';
import type { Category, FallbackType, SideV1, StopType, TimeInForce, TriggerBy } from '../wire/enums.js';
import type { JsonWireValue } from '../wire/json-writer.js';
import type { AttachedTpSl } from './orders-v2.js';
import { categoryQuery, refQuery } from './orders-v2.js';

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

const MAX_BATCH = 10;

/** Generation v1 orders (`/api/v1/futures`): bare JSON replies, form-encoded writes. */
export class OrdersV1Api {
  constructor(private readonly rest: RestTransport) {}

  /** POST /api/v1/futures/order: answers the new order (live `PENDING_NEW`, docs `NEW`). */
  async orderV1Create(order: CreateOrderV1): Promise<Result<RegularOrderV1, VenueError>> {
    const e = ENDPOINTS.orderV1Create;
    const problem = firstViolation(
      () => checkOrder(e, order, ''),
      () => positive(e, 'takeProfit', order.takeProfit),
      () => positive(e, 'tpLimitPrice', order.tpLimitPrice),
      () => positive(e, 'stopLoss', order.stopLoss),
      () => positive(e, 'slLimitPrice', order.slLimitPrice),
    );
    if (problem !== undefined) return err(problem);
    const form = orderedParams({
      symbol: order.symbol,
      side: order.side,
      type: order.type,
      quantity: order.quantity,
      valueQuantity: order.valueQuantity,
      price: order.price,
      priceType: order.priceType,
      stopPrice: order.stopPrice,
      timeInForce: order.timeInForce,
      newClientOrderId: order.newClientOrderId,
      takeProfit: order.takeProfit,
      tpTriggerBy: order.tpTriggerBy,
      tpLimitPrice: order.tpLimitPrice,
      tpOrderType: order.tpOrderType,
      stopLoss: order.stopLoss,
      slTriggerBy: order.slTriggerBy,
      slLimitPrice: order.slLimitPrice,
      slOrderType: order.slOrderType,
      category: order.category,
    });
    return callParsed(this.rest, { endpoint: e, form }, regularOrderV1Schema);
  }

  /**
   * POST /api/v1/futures/batchOrders: up to 10 orders of one symbol, legs failing independently.
   * JSON body, query-only signature (API-NOTES §1.2 RULE); each leg spends the order budget.
   */
  async batchOrdersV1(orders: readonly BatchOrderV1[], category?: Category): Promise<Result<BatchLegV1[], VenueError>> {
    const e = ENDPOINTS.batchOrdersV1;
    const label = endpointLabel(e);
    if (orders.length === 0 || orders.length > MAX_BATCH) {
      return err(invalidRequest(label, 'batch-size', `a batch holds 1 to ${MAX_BATCH} orders, got ${orders.length}`));
    }
    for (const [i, order] of orders.entries()) {
      const problem = checkOrder(e, order, `[${i}].`);
      if (problem !== undefined) return err(problem);
    }
    const symbol = orders[0]?.symbol;
    const other = orders.findIndex((o) => o.symbol !== symbol);
    if (other >= 0) return err(invalidRequest(label, 'batch-one-symbol', 'all orders of a batch must have the same symbol', `[${other}].symbol`));
    const json = orders.map((o): Record<string, JsonWireValue> => ({
      symbol: o.symbol,
      side: o.side,
      type: o.type,
      quantity: o.quantity,
      valueQuantity: o.valueQuantity,
      price: o.price,
      priceType: o.priceType,
      timeInForce: o.timeInForce,
      newClientOrderId: o.newClientOrderId,
    }));
    return callParsed(this.rest, { endpoint: e, query: categoryQuery(category), json, signQueryOnly: true, orders: orders.length }, batchResultV1Schema);
  }

  /** GET /api/v1/futures/order: type LIMIT (or omitted) answers a regular order, STOP a stop or TP/SL order. */
  async orderV1Get(query: OrderQueryV1 & { readonly type?: 'LIMIT' }): Promise<Result<RegularOrderV1, VenueError>>;
  async orderV1Get(query: OrderQueryV1 & { readonly type: 'STOP' }): Promise<Result<ConditionalOrderV1, VenueError>>;
  async orderV1Get(query: OrderQueryV1): Promise<Result<OrderV1, VenueError>>;
  async orderV1Get(query: OrderQueryV1): Promise<Result<OrderV1, VenueError>> {
    const e = ENDPOINTS.orderV1Get;
    const problem = someId(e, query);
    if (problem !== undefined) return err(problem);
    const request = { endpoint: e, query: [...refQuery(query), ...orderedParams({ type: query.type })] };
    return query.type === 'STOP' ? callParsed(this.rest, request, conditionalOrderV1Schema) : callParsed(this.rest, request, regularOrderV1Schema);
  }

  /** POST /api/v1/futures/order/update: answers the modified order in the shape of its type. */
  async orderV1Update(change: UpdateLimitV1): Promise<Result<RegularOrderV1, VenueError>>;
  async orderV1Update(change: UpdateStopV1): Promise<Result<StopOrderV1, VenueError>>;
  async orderV1Update(change: UpdateTpSlV1): Promise<Result<TpSlOrderV1, VenueError>>;
  async orderV1Update(change: UpdateOrderV1): Promise<Result<OrderV1, VenueError>>;
  async orderV1Update(change: UpdateOrderV1): Promise<Result<OrderV1, VenueError>> {
    const e = ENDPOINTS.orderV1Update;
    const problem = checkUpdate(e, change);
    if (problem !== undefined) return err(problem);
    const stop = change.type === 'LIMIT' ? undefined : change;
    const tpsl = change.type === 'STOP_PROFIT_LOSS' ? change : undefined;
    const form = orderedParams({
      orderId: change.orderId,
      origClientOrderId: change.origClientOrderId,
      newClientOrderId: change.type === 'STOP_PROFIT_LOSS' ? undefined : change.newClientOrderId,
      type: change.type,
      quantity: change.quantity,
      valueQuantity: change.valueQuantity,
      price: change.price,
      priceType: change.priceType,
      stopPrice: stop?.stopPrice,
      triggerBy: stop?.triggerBy,
      stopType: tpsl?.stopType,
      activePrice: tpsl?.activePrice,
      fallbackType: tpsl?.fallbackType,
      fallbackQuantity: tpsl?.fallbackQuantity,
      category: change.category,
    });
    const request = { endpoint: e, form };
    if (change.type === 'LIMIT') return callParsed(this.rest, request, regularOrderV1Schema);
    return change.type === 'STOP' ? callParsed(this.rest, request, stopOrderV1Schema) : callParsed(this.rest, request, tpSlOrderV1Schema);
  }

  /** GET /api/v1/futures/openOrders (API-NOTES §4.4): newest first, `orderId` pages to lower ids. */
  async openOrdersV1(query?: OpenOrdersQueryV1 & { readonly type?: 'LIMIT' }): Promise<Result<RegularOrderV1[], VenueError>>;
  async openOrdersV1(query: OpenOrdersQueryV1 & { readonly type: 'STOP' }): Promise<Result<ConditionalOrderV1[], VenueError>>;
  async openOrdersV1(query?: OpenOrdersQueryV1): Promise<Result<OrderV1[], VenueError>>;
  async openOrdersV1(query: OpenOrdersQueryV1 = {}): Promise<Result<OrderV1[], VenueError>> {
    const e = ENDPOINTS.openOrdersV1;
    const problem = limitInRange(e, query.limit);
    if (problem !== undefined) return err(problem);
    const request = {
      endpoint: e,
      query: orderedParams({ symbol: query.symbol, orderId: query.orderId, type: query.type, limit: query.limit, category: query.category }),
    };
    return query.type === 'STOP' ? callParsed(this.rest, request, conditionalOrderV1ListSchema) : callParsed(this.rest, request, regularOrderV1ListSchema);
  }

  /** DELETE /api/v1/futures/order (API-NOTES §4.7): answers the snapshot from BEFORE the cancel (status NEW). */
  async orderV1Cancel(query: CancelQueryV1 & { readonly type?: 'LIMIT' }): Promise<Result<RegularOrderV1, VenueError>>;
  async orderV1Cancel(query: CancelQueryV1 & { readonly type: 'STOP' }): Promise<Result<ConditionalOrderV1, VenueError>>;
  async orderV1Cancel(query: CancelQueryV1): Promise<Result<OrderV1, VenueError>>;
  async orderV1Cancel(query: CancelQueryV1): Promise<Result<OrderV1, VenueError>> {
    const e = ENDPOINTS.orderV1Cancel;
    const problem = someId(e, query);
    if (problem !== undefined) return err(problem);
    const request = { endpoint: e, query: [...refQuery(query), ...orderedParams({ type: query.type, symbol: query.symbol })] };
    return query.type === 'STOP' ? callParsed(this.rest, request, conditionalOrderV1Schema) : callParsed(this.rest, request, regularOrderV1Schema);
  }
}

/** v1 ids: at least one of orderId and origClientOrderId; both may be sent (orderId wins). */
function someId(e: EndpointDef, ids: OrderRefV1): Check {
  const label = endpointLabel(e);
  const hasId = ids.orderId !== undefined && ids.orderId !== '';
  const hasClient = ids.origClientOrderId !== undefined && ids.origClientOrderId !== '';
  if (!hasId && !hasClient) return invalidRequest(label, 'order-id-required', 'one of orderId or origClientOrderId is required', 'orderId');
  if (hasId && !/^\d+$/.test(ids.orderId ?? '')) return invalidRequest(label, 'order-id-format', 'orderId must be an integer id', 'orderId');
  return undefined;
}

/** Create rules (spec "Orders (v1)" create table), shared by single orders and batch legs. */
function checkOrder(e: EndpointDef, order: CreateOrderV1 | BatchOrderV1, at: string): Check {
  const label = endpointLabel(e);
  const stopPrice = order.type === 'STOP' ? order.stopPrice : undefined;
  return firstViolation(
    () => requireText(e, `${at}symbol`, order.symbol),
    () => requireText(e, `${at}newClientOrderId`, order.newClientOrderId),
    // The spec types quantity LONG, but live contract steps can be fractional (BTC 0.1 contract,
    // API-NOTES §6.2), so the local check is only "positive"; the step is the exchange's filter.
    () => (isPositive(order.quantity) ? undefined : invalidRequest(label, 'quantity-positive', 'quantity is a positive number of contracts', `${at}quantity`)),
    () =>
      order.valueQuantity === undefined || (order.valueQuantity.isFinite() && order.valueQuantity.gte(0))
        ? undefined
        : invalidRequest(label, 'valueQuantity-not-negative', 'valueQuantity is a non-negative quote amount', `${at}valueQuantity`),
    // price mandatory for LIMIT with priceType INPUT (the default).
    () =>
      order.type === 'LIMIT' && order.priceType !== 'MARKET' && order.price === undefined
        ? invalidRequest(label, 'limit-needs-price', 'a LIMIT order with priceType INPUT needs a price', `${at}price`)
        : undefined,
    () => (order.type === 'STOP' && stopPrice === undefined ? invalidRequest(label, 'stop-needs-stopPrice', 'a STOP order needs a stopPrice', `${at}stopPrice`) : undefined),
    () =>
      order.type !== 'LIMIT' && order.timeInForce !== undefined
        ? invalidRequest(label, 'time-in-force-limit-only', 'timeInForce applies to LIMIT orders only', `${at}timeInForce`)
        : undefined,
    () => positive(e, `${at}price`, order.price),
    () => positive(e, `${at}stopPrice`, stopPrice),
  );
}

function isPositive(value: Decimal | undefined): boolean {
  return value !== undefined && value.isFinite() && value.gt(0);
}

type UpdateField = Exclude<keyof UpdateTpSlV1 | keyof UpdateStopV1, keyof OrderRefV1 | 'type' | 'newClientOrderId' | 'side' | 'symbol'>;

/** Rule 1: the modifiable parameters per type. */
const MODIFIABLE: Readonly<Record<UpdateOrderV1['type'], readonly UpdateField[]>> = {
  LIMIT: ['quantity', 'valueQuantity', 'priceType', 'price'],
  STOP: ['quantity', 'valueQuantity', 'priceType', 'price', 'stopPrice', 'triggerBy'],
  STOP_PROFIT_LOSS: ['quantity', 'valueQuantity', 'priceType', 'price', 'stopPrice', 'triggerBy', 'stopType', 'activePrice', 'fallbackType', 'fallbackQuantity'],
};

/** The local part of the order/update validation rules (spec "Orders (v1)", rules 1-9). */
function checkUpdate(e: EndpointDef, change: UpdateOrderV1): Check {
  const label = endpointLabel(e);
  const sent = new Map<string, unknown>(Object.entries(change).filter(([, v]) => v !== undefined));
  const given = MODIFIABLE[change.type].filter((k) => sent.has(k));
  const rule = (n: number, message: string, field?: string): VenueError => invalidRequest(label, `update-rule-${n}`, message, field);
  const negative = (v: Decimal | undefined): boolean => v !== undefined && !(v.isFinite() && v.gte(0));
  const stop = change.type === 'LIMIT' ? undefined : change;
  return firstViolation(
    () => someId(e, change),
    // Rule 4: side and symbol are taken from the original and cannot be sent.
    () => (['side', 'symbol'].find((k) => sent.has(k)) === undefined ? undefined : rule(4, 'side and symbol cannot be changed; do not send them', sent.has('side') ? 'side' : 'symbol')),
    // Rule 7: TP/SL needs stopPrice (checked before rule 1 so the message names it).
    () => (change.type === 'STOP_PROFIT_LOSS' && change.stopPrice === undefined ? rule(7, 'a TP/SL modify needs stopPrice', 'stopPrice') : undefined),
    // Rule 1: at least one modifiable parameter of this type.
    () => (given.length === 0 ? rule(1, `give at least one of ${MODIFIABLE[change.type].join(', ')} for type ${change.type}`) : undefined),
    // Rule 8: quantities are not negative (0 keeps the original).
    () => (negative(change.quantity) ? rule(8, 'quantity must not be negative', 'quantity') : undefined),
    () => (negative(change.valueQuantity) ? rule(8, 'valueQuantity must not be negative', 'valueQuantity') : undefined),
    // Rule 9: price omitted or 0 keeps the original, > 0 is used; negative is meaningless.
    () => (negative(change.price) ? rule(9, 'price must not be negative', 'price') : undefined),
    // Rule 2: stopPrice 0 keeps the original.
    () => (negative(stop?.stopPrice) ? rule(2, 'stopPrice must not be negative', 'stopPrice') : undefined),
    // Rules 6/9 (LIMIT, STOP), 7 (TP/SL: price > 0 means a limit fill): MARKET cannot come with a price.
    () =>
      change.priceType === 'MARKET' && change.price !== undefined && change.price.gt(0)
        ? rule(change.type === 'STOP_PROFIT_LOSS' ? 7 : 6, 'priceType MARKET cannot be modified into a price', 'price')
        : undefined,
    () => (change.type === 'STOP_PROFIT_LOSS' ? checkTrailing(change, rule) : undefined),
    // Rule 3: a request whose every value means "keep the original" changes nothing.
    () => (given.every((k) => keepsOriginal(change, k)) ? rule(3, 'every given value keeps the original (0 means unchanged); nothing would change') : undefined),
  );
}

/** Rule 7: trailing parameters only with TRAILING_STOP, which needs fallbackType and fallbackQuantity > 0; activePrice > 0. */
function checkTrailing(change: UpdateTpSlV1, rule: (n: number, message: string, field?: string) => VenueError): Check {
  const trailing = change.stopType === 'TRAILING_STOP';
  const stray = (['activePrice', 'fallbackType', 'fallbackQuantity'] as const).find((k) => change[k] !== undefined);
  if (!trailing && stray !== undefined) return rule(7, `${stray} applies only with stopType TRAILING_STOP`, stray);
  if (change.activePrice !== undefined && !change.activePrice.gt(0)) return rule(7, 'activePrice must be greater than 0', 'activePrice');
  if (trailing && change.fallbackType === undefined) return rule(7, 'a trailing stop needs fallbackType', 'fallbackType');
  if (trailing && !(change.fallbackQuantity !== undefined && change.fallbackQuantity.gt(0))) {
    return rule(7, 'a trailing stop needs fallbackQuantity greater than 0', 'fallbackQuantity');
  }
  return undefined;
}

/** Zero amounts that mean "use the original" (rules 2, 8, 9); for TP/SL only stopPrice 0 is certain. */
function keepsOriginal(change: UpdateOrderV1, field: UpdateField): boolean {
  const zero = (v: Decimal | undefined): boolean => v !== undefined && v.isZero();
  if (change.type === 'STOP_PROFIT_LOSS') return field === 'stopPrice' && zero(change.stopPrice);
  switch (field) {
    case 'quantity':
      return zero(change.quantity);
    case 'valueQuantity':
      return zero(change.valueQuantity);
    case 'price':
      return zero(change.price);
    case 'stopPrice':
      return change.type === 'STOP' && zero(change.stopPrice);
    default:
      return false;
  }
}
