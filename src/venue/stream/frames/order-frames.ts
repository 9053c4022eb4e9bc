import { z } from 'zod';
import { dec } from '../../../core/decimal.js';
import type { OrderUpdated } from '../../../model/account-events.js';
import type { PositionSide, Side, TimeInForce } from '../../../model/instrument.js';
import { orderSide, orderStatus, timeInForce } from '../../../protocol/wire-enums.js';
import { regularStatus, timeInForceOf } from '../../wire/to-model.js';
import { boolLike, decimal, epochMs, id64, optDecimal, optText, text } from '../../wire/schema.js';
import type { ExecutionDetail, FillTicket, FrameContext } from './frame-types.js';

/** `contractExecutionReport` and `ticketInfo` (document 001 "Events", API-NOTES §7). */

export const executionReportSchema = z.object({
  E: epochMs,
  s: z.string(),
  c: text,
  C: boolLike,
  S: orderSide,
  o: z.string(),
  f: timeInForce.optional(),
  q: decimal,
  p: decimal,
  pt: z.string().optional(),
  X: orderStatus,
  i: id64,
  z: decimal,
  Z: optDecimal,
  l: optDecimal,
  n: optDecimal,
  N: z.string().nullish(),
  rp: optDecimal,
});

/** Opening orders add to the side they trade; closing ones (`C`) reduce the opposite side (API-NOTES §6.3). */
export function positionSideOf(side: Side, isClose: boolean): PositionSide {
  return (side === 'BUY') !== isClose ? 'LONG' : 'SHORT';
}

/** The order as of `E`; undefined for a status that is not a regular order's. */
export function orderItem(o: z.output<typeof executionReportSchema>, context: FrameContext): Array<OrderUpdated | ExecutionDetail> | undefined {
  const status = regularStatus(o.X, o.z);
  if (status === undefined) return undefined;
  const multiplier = context.contractMultiplier?.(o.s) ?? dec(1);
  const avgPrice = o.z.isZero() || o.Z === undefined || multiplier.isZero() ? dec(0) : o.Z.div(o.z.mul(multiplier));
  // v1 market orders are LIMIT with price type MARKET (API-NOTES §6.3).
  const market = o.o.includes('MARKET') || o.pt === 'MARKET';
  const tif: TimeInForce = o.f === undefined ? 'GTC' : timeInForceOf(o.f);
  const order = {
    symbol: o.s,
    orderId: o.i,
    clientOrderId: o.c,
    side: o.S,
    positionSide: positionSideOf(o.S, o.C),
    type: market ? ('MARKET' as const) : ('LIMIT' as const),
    timeInForce: tif,
    price: o.p,
    quantity: o.q,
    filledQty: o.z,
    avgPrice,
    status,
    updateTime: o.E,
  };
  const update: OrderUpdated = { type: 'account.order', source: 'stream', time: o.E, order };
  if (o.l === undefined || !o.l.gt(0)) return [update];
  const detail: ExecutionDetail = { type: 'stream.execution', orderId: o.i, qty: o.l, fee: o.n ?? dec(0), feeAsset: o.N ?? '', orderRealizedPnl: o.rp ?? dec(0) };
  return [detail, update];
}

/** `c` is the client order id (document 001); fee and realized PnL are read when a frame carries them. */
export const ticketSchema = z.object({
  E: epochMs,
  s: z.string(),
  q: decimal,
  t: epochMs,
  p: decimal,
  T: text,
  o: id64,
  c: optText,
  m: boolLike,
  S: orderSide,
  n: optDecimal,
  N: optText,
  rp: optDecimal,
});

export function ticketItem(t: z.output<typeof ticketSchema>): FillTicket {
  return {
    type: 'stream.ticket',
    time: t.E,
    fill: {
      symbol: t.s,
      tradeId: t.T,
      orderId: t.o,
      clientOrderId: t.c ?? '',
      side: t.S,
      price: t.p,
      qty: t.q,
      fee: t.n ?? dec(0),
      feeAsset: t.N ?? '',
      isMaker: t.m,
      realizedPnl: t.rp ?? dec(0),
      time: t.t,
    },
  };
}
