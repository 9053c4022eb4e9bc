import { z } from 'zod';
import { positionSide, triggerBy } from '../../protocol/wire-enums.js';
import { codeField, decimal, epochMs, intLike, optDecimal, optText } from '../wire/schema.js';
import { regularOrderV1Schema } from './order-v1.js';

/**
 * Replies of the position routes (API-NOTES §4.10–4.15, 4.17). Only what stratd reads is required.
 * flashClose and reversePosition replies are not sourced (API-NOTES §9): this client reads the
 * simulator's choice, the v1 row of the closing order (and of the opening one for a reverse).
 */

export const flashCloseSchema = regularOrderV1Schema;
export const reversePositionSchema = z.array(regularOrderV1Schema);

/** POST /api/v1/futures/positionMargin (DOC-DUMP): `margin` is a number there. */
export const positionMarginSchema = z.object({ code: codeField, msg: z.string().optional(), symbol: z.string(), margin: decimal, timestamp: epochMs.optional() });
export type PositionMarginResult = z.output<typeof positionMarginSchema>;

/** POST /api/v1/futures/position/trading-stop (OLD-DOCS, JKorf): the prices as set ("" for a leg not set). */
export const tradingStopSchema = z.object({
  symbol: z.string(),
  side: positionSide,
  takeProfit: optDecimal,
  stopLoss: optDecimal,
  tpTriggerBy: triggerBy.optional(),
  slTriggerBy: triggerBy.optional(),
});
export type TradingStopResult = z.output<typeof tradingStopSchema>;

/** GET /api/v1/futures/commissionRate: ccxt reads the close fees as maker/taker; the open ones are optional. */
export const commissionRateSchema = z.object({
  symbol: optText,
  openMakerFee: optDecimal,
  openTakerFee: optDecimal,
  closeMakerFee: decimal,
  closeTakerFee: decimal,
});
export type CommissionRate = z.output<typeof commissionRateSchema>;

/** GET /api/v1/futures/todayPnl (DOC-DUMP); the day starts at 00:00 UTC. */
export const todayPnlSchema = z.object({ dayProfit: decimal, dayProfitRate: optDecimal });
export type TodayPnl = z.output<typeof todayPnlSchema>;

/** POST /api/v2/futures/leverage `data`: `leverage` is a number here (API-NOTES §4.17). */
export const leverageV2Schema = z.object({ symbolId: z.string().optional(), symbol: z.string().optional(), leverage: intLike });
export type LeverageV2Result = z.output<typeof leverageV2Schema>;

/** POST /api/v1/futures/autoAddMargin: reply not sourced; the simulator echoes the switch. Nothing is required. */
export const autoAddMarginSchema = z.object({ code: codeField, enable: z.enum(['ON', 'OFF']).optional() });
export type AutoAddMarginResult = z.output<typeof autoAddMarginSchema>;

/** A closed position (GET /api/v1/futures/historyPositions): no source shows the reply; this reads the simulator's rows. */
export const closedPositionSchema = z.object({
  symbol: z.string(),
  side: positionSide,
  openTime: epochMs.optional(),
  closeTime: epochMs,
  openAvgPrice: optDecimal,
  closeAvgPrice: optDecimal,
  maxPositionQuantity: optDecimal,
  closedQuantity: decimal,
  realizedPnl: decimal,
  closeType: optText,
});
export type ClosedPosition = z.output<typeof closedPositionSchema>;
export const closedPositionListSchema = z.array(closedPositionSchema);
