import type { Decimal } from '../../core/decimal.js';
import { orderedParams } from '../../core/ordered-params.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { callParsed } from '../call-parsed.js';
import { ENDPOINTS, endpointLabel } from '../../protocol/endpoints.js';
import type { EndpointDef } from '../../protocol/endpoints.js';
import { orderV2ListSchema, orderV2Schema } from '../parsers/order-v2.js';
import type { OrderV2 } from '../parsers/order-v2.js';
import type { RequestTrace, RestCaller } from '../rest-transport.js';
import { tracedCaller } from '../rest-transport.js';
import type { Check } from '../validate.js';
import { exactlyOneId, firstViolation, limitInRange, notNegative, positive, requireText, someQuantity } from '../validate.js';
import { invalidRequest } from '../venue-error.js';
import type { VenueError } from '../venue-error.js';
import type { Category, OrderSide, PositionSide, StopCategory, TimeInForce, TriggerBy } from '../../protocol/wire-enums.js';
import { stopCategory } from '../../protocol/wire-enums.js';
import type { JsonWireValue } from '../../protocol/json-writer.js';
import { nullData } from '../wire/schema.js';
import type { AttachedTpSl, OrderRef } from './orders/v2.js';
import { callByRef, categoryQuery } from './orders/v2.js';

/** A plan order: a regular order placed once `stopPrice` is reached. */
export interface PlanOrder extends AttachedTpSl {
  readonly symbol: string;
  readonly side: OrderSide;
  readonly positionSide: PositionSide;
  /** STOP fills at `price` after the trigger, STOP_MARKET at market. */
  readonly type: 'STOP' | 'STOP_MARKET';
  /** Trigger price. */
  readonly stopPrice: Decimal;
  readonly newClientOrderId: string;
  readonly quantity?: Decimal;
  readonly valueQuantity?: Decimal;
  readonly price?: Decimal;
  readonly timeInForce?: TimeInForce;
  /** CONTRACT_PRICE by default. */
  readonly triggerBy?: TriggerBy;
  readonly category?: Category;
}

/** Change of an ORDER_NEW plan (STOP) or TP/SL (STOP_PROFIT_LOSS) row; omitted fields keep their value. */
export interface UpdateAlgoOrder extends OrderRef {
  readonly type: StopCategory;
  readonly newClientOrderId?: string;
  readonly quantity?: Decimal;
  readonly valueQuantity?: Decimal;
  readonly price?: Decimal;
  readonly stopPrice?: Decimal;
  readonly triggerBy?: TriggerBy;
}

export interface AlgoListQuery {
  readonly symbol?: string;
  /** Cursor. */
  readonly orderId?: string;
  /** Omitted: plan (STOP) rows only; TP/SL rows need STOP_PROFIT_LOSS. */
  readonly stopCategory?: StopCategory;
  readonly limit?: number;
  readonly category?: Category;
}

export interface AlgoHistoryQuery extends AlgoListQuery {
  readonly startTime?: number;
  readonly endTime?: number;
}

/** Generation v2 plan and TP/SL orders (`/api/v2/futures/algo-*`), document 000 and API-NOTES §4.16. */
export class AlgoOrdersApi {
  constructor(private readonly rest: RestCaller) {}

  /** The same API whose requests carry `trace` (latency figures). */
  traced(trace: RequestTrace): AlgoOrdersApi {
    return new AlgoOrdersApi(tracedCaller(this.rest, trace));
  }

  /** POST /api/v2/futures/algo-order: answers the plan row (ORDER_NEW, stopPrice, triggerBy). */
  async createPlanOrder(order: PlanOrder): Promise<Result<OrderV2, VenueError>> {
    const e = ENDPOINTS.algoOrderCreate;
    const problem = checkPlanOrder(e, order);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: categoryQuery(order.category), json: planBody(order) }, orderV2Schema);
  }

  /** POST /api/v2/futures/algo-order/update: answers the updated row of the requested family. */
  async updateAlgoOrder(change: UpdateAlgoOrder): Promise<Result<OrderV2, VenueError>> {
    const e = ENDPOINTS.algoOrderUpdate;
    const label = endpointLabel(e);
    const problem = firstViolation(
      () => (isStopCategory(change.type) ? undefined : invalidRequest(label, 'algo-type', 'type must be STOP or STOP_PROFIT_LOSS', 'type')),
      () => exactlyOneId(e, change),
      () =>
        [change.quantity, change.valueQuantity, change.price, change.stopPrice, change.triggerBy].every((v) => v === undefined)
          ? invalidRequest(label, 'nothing-to-modify', 'give at least one of quantity, valueQuantity, price, stopPrice and triggerBy')
          : undefined,
      () => notNegative(e, 'quantity', change.quantity),
      () => notNegative(e, 'valueQuantity', change.valueQuantity),
      // 0 means "keep the original" for price and stopPrice (document 000).
      () => notNegative(e, 'price', change.price),
      () => notNegative(e, 'stopPrice', change.stopPrice),
    );
    if (problem !== undefined) return err(problem);
    const json: Record<string, JsonWireValue> = {
      type: change.type,
      orderId: change.orderId,
      origClientOrderId: change.origClientOrderId,
      newClientOrderId: change.newClientOrderId,
      quantity: change.quantity,
      valueQuantity: change.valueQuantity,
      price: change.price,
      stopPrice: change.stopPrice,
      triggerBy: change.triggerBy,
    };
    return callParsed(this.rest, { endpoint: e, query: categoryQuery(change.category), json }, orderV2Schema);
  }

  /** GET /api/v2/futures/algo-order: one plan or TP/SL row, by id only. */
  async getAlgoOrder(ref: OrderRef): Promise<Result<OrderV2, VenueError>> {
    return callByRef(this.rest, ENDPOINTS.algoOrderGet, ref);
  }

  /** DELETE /api/v2/futures/algo-order: answers the final snapshot (ORDER_CANCELED). */
  async cancelAlgoOrder(ref: OrderRef): Promise<Result<OrderV2, VenueError>> {
    return callByRef(this.rest, ENDPOINTS.algoOrderCancel, ref);
  }

  /** GET /api/v2/futures/open-algo-orders */
  async openAlgoOrders(query: AlgoListQuery = {}): Promise<Result<OrderV2[], VenueError>> {
    const e = ENDPOINTS.openAlgoOrders;
    const problem = checkList(e, query);
    if (problem !== undefined) return err(problem);
    return callParsed(
      this.rest,
      {
        endpoint: e,
        query: orderedParams({ symbol: query.symbol, orderId: query.orderId, stopCategory: query.stopCategory, limit: query.limit, category: query.category }),
      },
      orderV2ListSchema,
    );
  }

  /** GET /api/v2/futures/history-algo-orders */
  async historyAlgoOrders(query: AlgoHistoryQuery = {}): Promise<Result<OrderV2[], VenueError>> {
    const e = ENDPOINTS.historyAlgoOrders;
    const problem = checkList(e, query);
    if (problem !== undefined) return err(problem);
    return callParsed(
      this.rest,
      {
        endpoint: e,
        query: orderedParams({
          symbol: query.symbol,
          orderId: query.orderId,
          stopCategory: query.stopCategory,
          startTime: query.startTime,
          endTime: query.endTime,
          limit: query.limit,
          category: query.category,
        }),
      },
      orderV2ListSchema,
    );
  }

  /** DELETE /api/v2/futures/batch-cancel-algo-orders: cancels every open row of one family on the symbols (data null). */
  async cancelAllAlgoOrders(symbols: readonly string[], family: StopCategory, category?: Category): Promise<Result<void, VenueError>> {
    const e = ENDPOINTS.batchCancelAlgoOrders;
    const label = endpointLabel(e);
    if (symbols.length === 0 || symbols.some((s) => s.trim() === '' || s.includes(','))) {
      return err(invalidRequest(label, 'symbol-list', 'give one or more symbols', 'symbol'));
    }
    if (!isStopCategory(family)) return err(invalidRequest(label, 'stop-category-required', 'stopCategory must be STOP or STOP_PROFIT_LOSS', 'stopCategory'));
    const reply = await callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol: symbols.join(','), stopCategory: family, category }) }, nullData);
    return reply.ok ? ok(undefined) : reply;
  }
}

function isStopCategory(value: unknown): value is StopCategory {
  return stopCategory.safeParse(value).success;
}

function checkList(e: EndpointDef, query: AlgoListQuery): Check {
  return firstViolation(
    () => limitInRange(e, query.limit),
    () =>
      query.stopCategory === undefined || isStopCategory(query.stopCategory)
        ? undefined
        : invalidRequest(endpointLabel(e), 'stop-category', 'stopCategory must be STOP or STOP_PROFIT_LOSS', 'stopCategory'),
  );
}

function checkPlanOrder(e: EndpointDef, order: PlanOrder): Check {
  const label = endpointLabel(e);
  return firstViolation(
    () => requireText(e, 'symbol', order.symbol),
    () => requireText(e, 'newClientOrderId', order.newClientOrderId),
    () => (order.type === 'STOP' || order.type === 'STOP_MARKET' ? undefined : invalidRequest(label, 'plan-type', 'type must be STOP or STOP_MARKET', 'type')),
    () => (order.stopPrice === undefined ? invalidRequest(label, 'mandatory-parameter', 'stopPrice is required', 'stopPrice') : positive(e, 'stopPrice', order.stopPrice)),
    () => someQuantity(e, order.quantity, order.valueQuantity),
    () => (order.type === 'STOP' && order.price === undefined ? invalidRequest(label, 'stop-needs-price', 'a STOP plan order needs a price', 'price') : undefined),
    () => (order.type === 'STOP_MARKET' && order.price !== undefined ? invalidRequest(label, 'stop-market-has-no-price', 'omit price for a STOP_MARKET plan order', 'price') : undefined),
    () => positive(e, 'price', order.price),
    () => positive(e, 'takeProfit', order.takeProfit),
    () => positive(e, 'tpLimitPrice', order.tpLimitPrice),
    () => positive(e, 'stopLoss', order.stopLoss),
    () => positive(e, 'slLimitPrice', order.slLimitPrice),
  );
}

function planBody(order: PlanOrder): Record<string, JsonWireValue> {
  return {
    symbol: order.symbol,
    side: order.side,
    positionSide: order.positionSide,
    type: order.type,
    stopPrice: order.stopPrice,
    newClientOrderId: order.newClientOrderId,
    quantity: order.quantity,
    valueQuantity: order.valueQuantity,
    price: order.price,
    timeInForce: order.timeInForce,
    triggerBy: order.triggerBy,
    takeProfit: order.takeProfit,
    tpTriggerBy: order.tpTriggerBy,
    tpLimitPrice: order.tpLimitPrice,
    tpOrderType: order.tpOrderType,
    stopLoss: order.stopLoss,
    slTriggerBy: order.slTriggerBy,
    slLimitPrice: order.slLimitPrice,
    slOrderType: order.slOrderType,
  };
}
