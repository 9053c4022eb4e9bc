import type { Decimal } from '../../../core/decimal.js';
import { orderedParams } from '../../../core/ordered-params.js';
import type { Result } from '../../../core/result.js';
import { err } from '../../../core/result.js';
import { callParsed } from '../../call-parsed.js';
import { ENDPOINTS, endpointLabel } from '../../../protocol/endpoints.js';
import type { EndpointDef } from '../../../protocol/endpoints.js';
import {
  batchResultV1Schema,
  conditionalOrderV1ListSchema,
  conditionalOrderV1Schema,
  regularOrderV1ListSchema,
  regularOrderV1Schema,
  stopOrderV1Schema,
  tpSlOrderV1Schema,
} from '../../parsers/order-v1.js';
import { readRegularOrderV1, readRegularOrdersV1 } from '../../parsers/order-v1-rows.js';
import type { BatchLegV1, ConditionalOrderV1, OrderV1, RegularOrderV1, StopOrderV1, TpSlOrderV1 } from '../../parsers/order-v1.js';
import { cancelAllV1Schema, cancelByIdsSchema, userTradesV1Schema } from '../../parsers/order-v1-more.js';
import type { CancelAllV1, CancelFailure, UserTradeV1 } from '../../parsers/order-v1-more.js';
import type { RequestTrace, RestCaller } from '../../rest-transport.js';
import { tracedCaller } from '../../rest-transport.js';
import type { Check } from '../../validate.js';
import { atLeastOneId, firstViolation, limitInRange, positive, requireText } from '../../validate.js';
import { invalidRequest } from '../../venue-error.js';
import type { VenueError } from '../../venue-error.js';
import type { Category, OrderSide } from '../../../protocol/wire-enums.js';
import type { JsonWireValue } from '../../../protocol/json-writer.js';
import type {
  BatchOrderV1,
  CancelQueryV1,
  CreateOrderV1,
  HistoryQueryV1,
  OpenOrdersQueryV1,
  OrderQueryV1,
  UpdateLimitV1,
  UpdateOrderV1,
  UpdateStopV1,
  UpdateTpSlV1,
} from './v1-types.js';
import { checkUpdate } from './v1-update-rules.js';
import { categoryQuery, refQuery } from './v2.js';
import type { UserTradesQuery } from './v2.js';

const MAX_BATCH = 10;
/** cancelOrderByIds takes at most 100 ids (API-NOTES §4.9). */
const MAX_CANCEL_IDS = 100;

/** Generation v1 orders (`/api/v1/futures`): bare JSON replies, form-encoded writes. */
export class OrdersV1Api {
  constructor(private readonly rest: RestCaller) {}

  /** The same API whose requests carry `trace` (latency figures). */
  traced(trace: RequestTrace): OrdersV1Api {
    return new OrdersV1Api(tracedCaller(this.rest, trace));
  }

  /** POST /api/v1/futures/order: answers the new order (live `PENDING_NEW`, docs `NEW`). */
  async orderV1Create(order: CreateOrderV1): Promise<Result<RegularOrderV1, VenueError>> {
    const e = ENDPOINTS.orderV1Create;
    // The first violation, in order (a chain, not firstViolation's closures: placing is the hot path).
    const problem =
      checkOrder(e, order, '') ??
      positive(e, 'takeProfit', order.takeProfit) ??
      positive(e, 'tpLimitPrice', order.tpLimitPrice) ??
      positive(e, 'stopLoss', order.stopLoss) ??
      positive(e, 'slLimitPrice', order.slLimitPrice);
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
    // `return await` (here, in open orders and in cancel): an async function that returns a promise resolves with it two microtask turns later.
    return await callParsed(this.rest, { endpoint: e, form }, regularOrderV1Schema, readRegularOrderV1);
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
    return callParsed(this.rest, { endpoint: e, query: categoryQuery(category), json, orders: orders.length }, batchResultV1Schema);
  }

  /** GET /api/v1/futures/order: type LIMIT (or omitted) answers a regular order, STOP a stop or TP/SL order. */
  async orderV1Get(query: OrderQueryV1 & { readonly type?: 'LIMIT' }): Promise<Result<RegularOrderV1, VenueError>>;
  async orderV1Get(query: OrderQueryV1 & { readonly type: 'STOP' }): Promise<Result<ConditionalOrderV1, VenueError>>;
  async orderV1Get(query: OrderQueryV1): Promise<Result<OrderV1, VenueError>>;
  async orderV1Get(query: OrderQueryV1): Promise<Result<OrderV1, VenueError>> {
    const e = ENDPOINTS.orderV1Get;
    const problem = atLeastOneId(e, query);
    if (problem !== undefined) return err(problem);
    const request = { endpoint: e, query: [...refQuery(query), ...orderedParams({ type: query.type })] };
    return query.type === 'STOP' ? callParsed(this.rest, request, conditionalOrderV1Schema) : callParsed(this.rest, request, regularOrderV1Schema, readRegularOrderV1);
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
    if (change.type === 'LIMIT') return callParsed(this.rest, request, regularOrderV1Schema, readRegularOrderV1);
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
    return await (query.type === 'STOP' ? callParsed(this.rest, request, conditionalOrderV1ListSchema) : callParsed(this.rest, request, regularOrderV1ListSchema, readRegularOrdersV1));
  }

  /** DELETE /api/v1/futures/order (API-NOTES §4.7): answers the snapshot from BEFORE the cancel (status NEW). */
  async orderV1Cancel(query: CancelQueryV1 & { readonly type?: 'LIMIT' }): Promise<Result<RegularOrderV1, VenueError>>;
  async orderV1Cancel(query: CancelQueryV1 & { readonly type: 'STOP' }): Promise<Result<ConditionalOrderV1, VenueError>>;
  async orderV1Cancel(query: CancelQueryV1): Promise<Result<OrderV1, VenueError>>;
  async orderV1Cancel(query: CancelQueryV1): Promise<Result<OrderV1, VenueError>> {
    const e = ENDPOINTS.orderV1Cancel;
    const problem = atLeastOneId(e, query);
    if (problem !== undefined) return err(problem);
    const request = { endpoint: e, query: [...refQuery(query), ...orderedParams({ type: query.type, symbol: query.symbol })] };
    return await (query.type === 'STOP' ? callParsed(this.rest, request, conditionalOrderV1Schema) : callParsed(this.rest, request, regularOrderV1Schema, readRegularOrderV1));
  }

  /**
   * GET /api/v1/futures/historyOrders (API-NOTES §4.5): finished orders, newest first; `orderId` pages
   * to lower ids; without startTime the exchange looks three days back.
   */
  async historyOrdersV1(query?: HistoryQueryV1 & { readonly type?: 'LIMIT' }): Promise<Result<RegularOrderV1[], VenueError>>;
  async historyOrdersV1(query: HistoryQueryV1 & { readonly type: 'STOP' }): Promise<Result<ConditionalOrderV1[], VenueError>>;
  async historyOrdersV1(query?: HistoryQueryV1): Promise<Result<OrderV1[], VenueError>>;
  async historyOrdersV1(query: HistoryQueryV1 = {}): Promise<Result<OrderV1[], VenueError>> {
    const e = ENDPOINTS.historyOrdersV1;
    const problem = limitInRange(e, query.limit);
    if (problem !== undefined) return err(problem);
    const request = {
      endpoint: e,
      query: orderedParams({
        symbol: query.symbol,
        orderId: query.orderId,
        type: query.type,
        startTime: query.startTime,
        endTime: query.endTime,
        limit: query.limit,
        category: query.category,
      }),
    };
    return query.type === 'STOP' ? callParsed(this.rest, request, conditionalOrderV1ListSchema) : callParsed(this.rest, request, regularOrderV1ListSchema, readRegularOrdersV1);
  }

  /** GET /api/v1/futures/userTrades (API-NOTES §4.6): the account's fills of one symbol, newest first. */
  async userTradesV1(query: UserTradesQuery): Promise<Result<UserTradeV1[], VenueError>> {
    const e = ENDPOINTS.userTradesV1;
    const problem = firstViolation(
      () => requireText(e, 'symbol', query.symbol),
      () => limitInRange(e, query.limit),
    );
    if (problem !== undefined) return err(problem);
    const q = orderedParams({
      symbol: query.symbol,
      fromId: query.fromId,
      toId: query.toId,
      startTime: query.startTime,
      endTime: query.endTime,
      limit: query.limit,
      category: query.category,
    });
    return callParsed(this.rest, { endpoint: e, query: q }, userTradesV1Schema);
  }

  /** DELETE /api/v1/futures/batchOrders (API-NOTES §4.8): cancels every open order of a symbol, one side when `side` is given. */
  async cancelAllV1(query: { readonly symbol: string; readonly side?: OrderSide; readonly category?: Category }): Promise<Result<CancelAllV1, VenueError>> {
    const e = ENDPOINTS.batchCancelV1;
    const problem = requireText(e, 'symbol', query.symbol);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol: query.symbol, side: query.side, category: query.category }) }, cancelAllV1Schema);
  }

  /**
   * DELETE /api/v1/futures/cancelOrderByIds (API-NOTES §4.9): up to 100 ids; answers the ids that could
   * not be canceled with their codes (-2013 unknown), `[]` when all were.
   */
  async cancelOrderByIds(ids: readonly string[], options: { readonly symbol?: string; readonly category?: Category } = {}): Promise<Result<CancelFailure[], VenueError>> {
    const e = ENDPOINTS.cancelOrderByIds;
    const label = endpointLabel(e);
    if (ids.length === 0 || ids.length > MAX_CANCEL_IDS) return err(invalidRequest(label, 'ids-count', `ids holds 1 to ${MAX_CANCEL_IDS} order ids, got ${ids.length}`, 'ids'));
    const bad = ids.findIndex((id) => !/^\d+$/.test(id));
    if (bad >= 0) return err(invalidRequest(label, 'order-id-format', 'every id must be an integer order id', `ids[${bad}]`));
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ ids: ids.join(','), symbol: options.symbol, category: options.category }) }, cancelByIdsSchema);
  }
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
