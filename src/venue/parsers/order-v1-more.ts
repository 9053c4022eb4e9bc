import { z } from 'zod';
import { sideV1 } from '../../protocol/wire-enums.js';
import { boolLike, codeField, decimal, epochMs, id64, intLike, optDecimal, text } from '../wire/schema.js';

/**
 * Replies of the v1 routes of API-NOTES §4.6, 4.8 and 4.9. Only what stratd reads is required; other
 * fields are optional or ignored (API-NOTES §0 rule 8).
 */

/** A v1 user trade (API-NOTES §4.6): v1 side, quantities in contracts. */
export const userTradeV1Schema = z.object({
  time: epochMs,
  id: id64,
  orderId: id64,
  matchOrderId: id64.optional(),
  symbol: z.string(),
  price: decimal,
  qty: decimal,
  commissionAsset: z.string().optional(),
  commission: decimal,
  makerRebate: optDecimal,
  type: z.string().optional(),
  side: sideV1,
  realizedPnl: optDecimal,
  ticketId: text.optional(),
  isMaker: boolLike.optional(),
});
export type UserTradeV1 = z.output<typeof userTradeV1Schema>;
export const userTradesV1Schema = z.array(userTradeV1Schema);

/** DELETE /api/v1/futures/batchOrders: docs `{code, message, timestamp}` (numbers), live all strings. */
export const cancelAllV1Schema = z.object({ code: codeField, message: z.string().optional(), msg: z.string().optional(), timestamp: epochMs.optional() });
export type CancelAllV1 = z.output<typeof cancelAllV1Schema>;

/** One id that cancelOrderByIds could not cancel, with its code (-2013 unknown). */
export const cancelFailureSchema = z.object({ orderId: id64, code: intLike });
export type CancelFailure = z.output<typeof cancelFailureSchema>;

/** DELETE /api/v1/futures/cancelOrderByIds: `code` 200 means processed; `result` lists the failed ids (API-NOTES §4.9). */
export const cancelByIdsSchema = z
  .object({ code: codeField, result: z.array(cancelFailureSchema).nullable().optional() })
  .transform((reply) => reply.result ?? []);
