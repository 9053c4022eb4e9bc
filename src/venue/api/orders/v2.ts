import type { Decimal } from '../../../core/decimal.js';
import { orderedParams } from '../../../core/ordered-params.js';
import type { Result } from '../../../core/result.js';
import { err, ok } from '../../../core/result.js';
import { callParsed } from '../../call-parsed.js';
import { ENDPOINTS, endpointLabel } from '../../../protocol/endpoints.js';
import type { EndpointDef } from '../../../protocol/endpoints.js';
import { batchResultV2Schema, orderV2ListSchema, orderV2Schema, userTradesV2Schema } from '../../parsers/order-v2.js';
import type { BatchLegV2, OrderV2, UserTradeV2 } from '../../parsers/order-v2.js';
import type { RequestTrace, RestCaller } from '../../rest-transport.js';
import { tracedCaller } from '../../rest-transport.js';
import type { Check } from '../../validate.js';
import { exactlyOneId, firstViolation, limitInRange, positive, requireText, someQuantity } from '../../validate.js';
import { invalidRequest } from '../../venue-error.js';
import type { VenueError } from '../../venue-error.js';
import type { Category, OrderSide, PositionSide, TimeInForce, TpSlOrderType, TriggerBy } from '../../../protocol/wire-enums.js';
import type { JsonWireValue } from '../../../protocol/json-writer.js';
import { nullData } from '../../wire/schema.js';

/** Take-profit / stop-loss attached to a new order. */
export interface AttachedTpSl {
  readonly takeProfit?: Decimal;
  readonly tpTriggerBy?: TriggerBy;
  readonly tpLimitPrice?: Decimal;
  readonly tpOrderType?: TpSlOrderType;
  readonly stopLoss?: Decimal;
  readonly slTriggerBy?: TriggerBy;
  readonly slLimitPrice?: Decimal;
  readonly slOrderType?: TpSlOrderType;
}

export interface PlaceOrderV2 extends AttachedTpSl {
  readonly symbol: string;
  readonly side: OrderSide;
  readonly positionSide: PositionSide;
  readonly type: 'LIMIT' | 'MARKET';
  readonly newClientOrderId: string;
  /** Contracts. */
  readonly quantity?: Decimal;
  /** Quote-coin notional; `quantity` wins when both are sent. */
  readonly valueQuantity?: Decimal;
  readonly price?: Decimal;
  readonly timeInForce?: TimeInForce;
  readonly category?: Category;
}

export type BatchOrderV2 = Omit<PlaceOrderV2, 'category' | keyof AttachedTpSl>;

export interface OrderRef {
  readonly orderId?: string;
  readonly origClientOrderId?: string;
  readonly category?: Category;
}

export interface ModifyOrderV2 extends OrderRef {
  readonly newClientOrderId?: string;
  readonly quantity?: Decimal;
  readonly valueQuantity?: Decimal;
  readonly price?: Decimal;
}

export interface ListQuery {
  readonly symbol?: string;
  /** Cursor. */
  readonly orderId?: string;
  readonly limit?: number;
  readonly category?: Category;
}

export interface HistoryQuery extends ListQuery {
  readonly startTime?: number;
  readonly endTime?: number;
}

export interface UserTradesQuery {
  readonly symbol: string;
  readonly fromId?: string;
  readonly toId?: string;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit?: number;
  readonly category?: Category;
}

const MAX_BATCH = 10;

/** Generation v2 regular orders (`/api/v2/futures`), document 000. */
export class OrdersV2Api {
  constructor(private readonly rest: RestCaller) {}

  /** The same API whose requests carry `trace` (latency figures). */
  traced(trace: RequestTrace): OrdersV2Api {
    return new OrdersV2Api(tracedCaller(this.rest, trace));
  }

  /** POST /api/v2/futures/order */
  async placeOrder(order: PlaceOrderV2): Promise<Result<OrderV2, VenueError>> {
    const e = ENDPOINTS.orderV2Create;
    const problem = checkOrder(e, order, '');
    if (problem !== undefined) return err(problem);
    return this.placeApproved(order);
  }

  /**
   * POST /api/v2/futures/order for an order the kernel's risk engine resolved (the exchange port's
   * road): it passed those checks and more already, so they are not run again on the order path.
   */
  placeApproved(order: PlaceOrderV2): Promise<Result<OrderV2, VenueError>> {
    return callParsed(this.rest, { endpoint: ENDPOINTS.orderV2Create, query: categoryQuery(order.category), json: orderBody(order) }, orderV2Schema);
  }

  /** POST /api/v2/futures/batch-orders: legs succeed or fail independently. */
  async placeBatch(orders: readonly BatchOrderV2[], category?: Category): Promise<Result<BatchLegV2[], VenueError>> {
    const e = ENDPOINTS.batchOrdersV2;
    if (orders.length === 0 || orders.length > MAX_BATCH) {
      return err(invalidRequest(endpointLabel(e), 'batch-size', `a batch holds 1 to ${MAX_BATCH} orders, got ${orders.length}`));
    }
    for (const [i, order] of orders.entries()) {
      const problem = checkOrder(e, order, `[${i}].`);
      if (problem !== undefined) return err(problem);
    }
    return callParsed(
      this.rest,
      { endpoint: e, query: categoryQuery(category), json: orders.map((o) => orderBody(o)), orders: orders.length },
      batchResultV2Schema,
    );
  }

  /** POST /api/v2/futures/order/update (LIMIT orders only). */
  async modifyOrder(change: ModifyOrderV2): Promise<Result<OrderV2, VenueError>> {
    const e = ENDPOINTS.orderV2Update;
    const problem = firstViolation(
      () => exactlyOneId(e, change),
      () => positive(e, 'price', change.price),
      () =>
        change.quantity === undefined && change.valueQuantity === undefined && change.price === undefined
          ? invalidRequest(endpointLabel(e), 'nothing-to-modify', 'give at least one of quantity, valueQuantity and price')
          : undefined,
    );
    if (problem !== undefined) return err(problem);
    const json: Record<string, JsonWireValue> = {
      orderId: change.orderId,
      origClientOrderId: change.origClientOrderId,
      newClientOrderId: change.newClientOrderId,
      quantity: change.quantity,
      valueQuantity: change.valueQuantity,
      price: change.price,
    };
    return callParsed(this.rest, { endpoint: e, query: categoryQuery(change.category), json }, orderV2Schema);
  }

  /** DELETE /api/v2/futures/order: answers the canceled order. */
  cancelOrder(ref: OrderRef): Promise<Result<OrderV2, VenueError>> {
    return callByRef(this.rest, ENDPOINTS.orderV2Cancel, ref);
  }

  /** DELETE /api/v2/futures/batch-orders: cancels every open order of the symbols (optionally one side). */
  async cancelAll(symbols: readonly string[], side?: OrderSide, category?: Category): Promise<Result<void, VenueError>> {
    const e = ENDPOINTS.batchCancelV2;
    if (symbols.length === 0 || symbols.some((s) => s.trim() === '' || s.includes(','))) {
      return err(invalidRequest(endpointLabel(e), 'symbol-list', 'give one or more symbols', 'symbol'));
    }
    const reply = await callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol: symbols.join(','), side, category }) }, nullData);
    return reply.ok ? ok(undefined) : reply;
  }

  /** GET /api/v2/futures/order */
  async getOrder(ref: OrderRef): Promise<Result<OrderV2, VenueError>> {
    return callByRef(this.rest, ENDPOINTS.orderV2Get, ref);
  }

  /** GET /api/v2/futures/open-orders */
  async openOrders(query: ListQuery = {}): Promise<Result<OrderV2[], VenueError>> {
    const e = ENDPOINTS.openOrdersV2;
    const problem = limitInRange(e, query.limit);
    if (problem !== undefined) return err(problem);
    return callParsed(
      this.rest,
      { endpoint: e, query: orderedParams({ symbol: query.symbol, orderId: query.orderId, limit: query.limit, category: query.category }) },
      orderV2ListSchema,
    );
  }

  /** GET /api/v2/futures/history-orders */
  async historyOrders(query: HistoryQuery = {}): Promise<Result<OrderV2[], VenueError>> {
    const e = ENDPOINTS.historyOrdersV2;
    const problem = limitInRange(e, query.limit);
    if (problem !== undefined) return err(problem);
    return callParsed(
      this.rest,
      {
        endpoint: e,
        query: orderedParams({
          symbol: query.symbol,
          orderId: query.orderId,
          startTime: query.startTime,
          endTime: query.endTime,
          limit: query.limit,
          category: query.category,
        }),
      },
      orderV2ListSchema,
    );
  }

  /** GET /api/v2/futures/user-trades */
  async userTrades(query: UserTradesQuery): Promise<Result<UserTradeV2[], VenueError>> {
    const e = ENDPOINTS.userTradesV2;
    const problem = firstViolation(
      () => requireText(e, 'symbol', query.symbol),
      () => limitInRange(e, query.limit),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(
      this.rest,
      {
        endpoint: e,
        query: orderedParams({
          symbol: query.symbol,
          fromId: query.fromId,
          toId: query.toId,
          startTime: query.startTime,
          endTime: query.endTime,
          limit: query.limit,
          category: query.category,
        }),
      },
      userTradesV2Schema,
    );
  }
}

export function categoryQuery(category: Category | undefined): ReturnType<typeof orderedParams> {
  return orderedParams({ category });
}

export function refQuery(ref: OrderRef): ReturnType<typeof orderedParams> {
  return orderedParams({ orderId: ref.orderId, origClientOrderId: ref.origClientOrderId, category: ref.category });
}

/**
 * Get or cancel one v2 row by orderId or origClientOrderId (exactly one of them). Not async: it hands
 * on `callParsed`'s promise (a cancel's way to the socket, one promise fewer).
 */
export function callByRef(rest: RestCaller, e: EndpointDef, ref: OrderRef): Promise<Result<OrderV2, VenueError>> {
  const problem = exactlyOneId(e, ref);
  if (problem !== undefined) return Promise.resolve(err(problem));
  return callParsed(rest, { endpoint: e, query: refQuery(ref) }, orderV2Schema);
}

function checkOrder(e: EndpointDef, order: BatchOrderV2, at: string): Check {
  const label = endpointLabel(e);
  return firstViolation(
    () => requireText(e, `${at}symbol`, order.symbol),
    () => requireText(e, `${at}newClientOrderId`, order.newClientOrderId),
    () => someQuantity(e, order.quantity, order.valueQuantity),
    () => (order.type === 'LIMIT' && order.price === undefined ? invalidRequest(label, 'limit-needs-price', 'a LIMIT order needs a price', `${at}price`) : undefined),
    () => (order.type === 'MARKET' && order.price !== undefined ? invalidRequest(label, 'market-has-no-price', 'omit price for a MARKET order', `${at}price`) : undefined),
    () => positive(e, `${at}price`, order.price),
  );
}

function orderBody(order: PlaceOrderV2 | BatchOrderV2): Record<string, JsonWireValue> {
  const tpsl = order as AttachedTpSl;
  return {
    symbol: order.symbol,
    side: order.side,
    positionSide: order.positionSide,
    type: order.type,
    newClientOrderId: order.newClientOrderId,
    quantity: order.quantity,
    valueQuantity: order.valueQuantity,
    price: order.price,
    timeInForce: order.timeInForce,
    takeProfit: tpsl.takeProfit,
    tpTriggerBy: tpsl.tpTriggerBy,
    tpLimitPrice: tpsl.tpLimitPrice,
    tpOrderType: tpsl.tpOrderType,
    stopLoss: tpsl.stopLoss,
    slTriggerBy: tpsl.slTriggerBy,
    slLimitPrice: tpsl.slLimitPrice,
    slOrderType: tpsl.slOrderType,
  };
}
