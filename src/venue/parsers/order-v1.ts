import { z } from 'zod';
import { orderStatus, orderTypeV1, priceTypeV1, sideV1, timeInForce, triggerBy } from '../../protocol/wire-enums.js';
import { codeField, decimal, epochMs, id64, intLike, optDecimal, text } from '../wire/schema.js';
import { tolerantList } from '../wire/tolerant-list.js';

/** `orderType` of stop (STOP_COMMON) and TP/SL rows; the spec adds "and others", so other text is kept. */
export type ConditionalOrderTypeV1 = 'STOP_COMMON' | 'STOP_LONG_PROFIT' | 'STOP_LONG_LOSS' | 'STOP_SHORT_PROFIT' | 'STOP_SHORT_LOSS' | (string & {});
const conditionalOrderType = z.string().min(1).transform((v): ConditionalOrderTypeV1 => v);

/**
 * A v1 regular order (create, query, modify, cancel snapshot, open orders, batch legs). Queries and
 * modifies also carry `executeQty` (same value as executedQty): either one is accepted. Batch legs and
 * queries omit contractMultiplier; live rows add triggerType/fallType/activeStatus as "0" (§4.4, §6.5).
 */
export const regularOrderV1Schema = z
  .object({
    time: epochMs,
    updateTime: epochMs,
    orderId: id64,
    clientOrderId: text,
    symbol: z.string(),
    price: decimal,
    /** Not read by stratd (the position carries the leverage), so optional, as marginLocked. */
    leverage: optDecimal,
    origQty: decimal,
    executedQty: optDecimal,
    executeQty: optDecimal,
    avgPrice: decimal,
    marginLocked: optDecimal,
    type: orderTypeV1,
    side: sideV1,
    timeInForce: timeInForce,
    status: orderStatus,
    priceType: priceTypeV1,
    contractMultiplier: optDecimal,
    triggerType: intLike.optional(),
    fallType: intLike.optional(),
    activeStatus: intLike.optional(),
  })
  .transform(({ executedQty, executeQty, ...row }, ctx) => {
    const filled = executedQty ?? executeQty;
    if (filled === undefined) {
      ctx.addIssue({ code: 'custom', message: 'expected executedQty (or executeQty)', path: ['executedQty'] });
      return z.NEVER;
    }
    return { kind: 'regular' as const, ...row, executedQty: filled };
  });
export type RegularOrderV1 = z.output<typeof regularOrderV1Schema>;

/** Fields of a v1 stop order (spec "Order, v1 stop"); TP/SL rows have all of them too. */
const stopFields = {
  time: epochMs,
  updateTime: epochMs.optional(),
  orderId: id64,
  accountId: id64.optional(),
  clientOrderId: text,
  symbol: z.string(),
  leverage: optDecimal,
  origQty: decimal,
  /** Price after trigger; 0 for market. */
  price: decimal,
  /** Id of the order created on trigger; "0" until triggered. */
  executedOrderId: id64,
  side: sideV1,
  status: orderStatus,
  priceType: priceTypeV1,
  stopPrice: decimal,
  triggerBy: triggerBy,
  /** 0 fixed trigger, 1 dynamic (TP/SL). */
  triggerType: intLike,
  orderType: conditionalOrderType,
  contractMultiplier: optDecimal,
};

export const stopOrderV1Schema = z.object({ ...stopFields, type: z.literal('STOP') }).transform((row) => ({ kind: 'stop' as const, ...row }));
export type StopOrderV1 = z.output<typeof stopOrderV1Schema>;

export const tpSlOrderV1Schema = z
  .object({
    ...stopFields,
    type: z.literal('STOP_PROFIT_LOSS'),
    /** Trailing activation price; 0 for fixed. */
    activePrice: decimal,
    /** 0 none, 1 RATE, 2 PRICE. */
    fallType: intLike,
    fallQuantity: decimal,
    /** 0 not activated, 1 activated. */
    activeStatus: intLike,
  })
  .transform((row) => ({ kind: 'tpsl' as const, ...row }));
export type TpSlOrderV1 = z.output<typeof tpSlOrderV1Schema>;

/** What `type=STOP` queries answer: a stop or a TP/SL row, told apart by the row's `type`. */
export const conditionalOrderV1Schema = z.discriminatedUnion('type', [stopOrderV1Schema, tpSlOrderV1Schema]);
export type ConditionalOrderV1 = StopOrderV1 | TpSlOrderV1;

/** Any v1 order, discriminated by `kind` ('regular' | 'stop' | 'tpsl'). */
export type OrderV1 = RegularOrderV1 | ConditionalOrderV1;

/** List replies: a row stratd cannot read is skipped and counted (batch results stay strict: legs answer requests by position). */
export const regularOrderV1ListSchema = tolerantList(regularOrderV1Schema);
export const conditionalOrderV1ListSchema = tolerantList(conditionalOrderV1Schema);

/** One leg of a v1 batch: `{code: 200, order}` or its own failure `{code: <negative>, msg}` (§5.9). */
export type BatchLegV1 =
  | { readonly ok: true; readonly code: number; readonly order: RegularOrderV1 }
  | { readonly ok: false; readonly code: number; readonly msg?: string };

export const batchLegV1Schema = z
  .object({ code: intLike, msg: z.string().optional(), order: regularOrderV1Schema.nullable().optional() })
  .transform((leg, ctx): BatchLegV1 => {
    if (leg.code === 200 || leg.code === 0) {
      if (leg.order === undefined || leg.order === null) {
        ctx.addIssue({ code: 'custom', message: 'a successful leg carries its order', path: ['order'] });
        return z.NEVER;
      }
      return { ok: true, code: leg.code, order: leg.order };
    }
    return { ok: false, code: leg.code, ...(leg.msg === undefined ? {} : { msg: leg.msg }) };
  });

/** The v1 batch answer `{code, result: [...]}`, reduced to its legs in request order. */
export const batchResultV1Schema = z.object({ code: codeField, result: z.array(batchLegV1Schema) }).transform((reply) => reply.result);
