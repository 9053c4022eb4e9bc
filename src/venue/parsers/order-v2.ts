import { z } from 'zod';
import { fallbackType, orderSide, orderStatus, orderTypeV2, positionSide, stopOrderType, stopType, timeInForce, triggerBy } from '../../protocol/wire-enums.js';
import { boolLike, decimal, epochMs, id64, intLike, optDecimal, text } from '../wire/schema.js';
import { tolerantList } from '../wire/tolerant-list.js';

/** A v2 order row: regular, plan (stopPrice, triggerBy) or TP/SL (stopOrderType, stopType, trailing fields). */
export const orderV2Schema = z.object({
  time: epochMs,
  updateTime: epochMs,
  orderId: id64,
  clientOrderId: text,
  symbol: z.string(),
  price: decimal,
  /** Not read by stratd (the position carries the leverage), so optional, as marginLocked. */
  leverage: optDecimal,
  origQty: decimal,
  executedQty: decimal,
  avgPrice: decimal,
  marginLocked: optDecimal,
  type: orderTypeV2,
  side: orderSide,
  positionSide: positionSide,
  timeInForce: timeInForce.optional(),
  status: orderStatus,
  contractMultiplier: optDecimal,
  stopPrice: optDecimal,
  triggerBy: triggerBy.optional(),
  stopOrderType: stopOrderType.optional(),
  stopType: stopType.optional(),
  activePrice: optDecimal,
  fallbackType: fallbackType.optional(),
  fallbackQuantity: optDecimal,
  activeStatus: intLike.optional(),
  /** Plan and TP/SL rows: the regular order created on trigger; "0" (or absent) until then. */
  executedOrderId: id64.optional(),
});
export type OrderV2 = z.output<typeof orderV2Schema>;

/** List replies skip and count a row stratd cannot read; batch results stay strict (legs answer requests by position). */
export const orderV2ListSchema = tolerantList(orderV2Schema);

/** One leg of a v2 batch: the order, or its own failure code. */
export const batchLegV2Schema = z.object({
  code: intLike,
  msg: z.string().optional(),
  order: orderV2Schema.nullable().optional(),
});
export const batchResultV2Schema = z.array(batchLegV2Schema);
export type BatchLegV2 = z.output<typeof batchLegV2Schema>;

export const userTradeV2Schema = z.object({
  time: epochMs,
  createdTime: epochMs.optional(),
  id: id64,
  orderId: id64,
  matchOrderId: id64.optional(),
  matchAccountId: id64.optional(),
  accountId: id64.optional(),
  symbol: z.string(),
  price: decimal,
  qty: decimal,
  commissionAsset: z.string(),
  commission: decimal,
  makerRebate: optDecimal,
  type: z.string().optional(),
  side: orderSide,
  positionSide: positionSide,
  realizedPnl: decimal,
  ticketId: text.optional(),
  isMaker: boolLike,
  matchOrderStrategy: intLike.optional(),
});
export type UserTradeV2 = z.output<typeof userTradeV2Schema>;
export const userTradesV2Schema = tolerantList(userTradeV2Schema);
