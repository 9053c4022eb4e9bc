import { z } from 'zod';
import { boolLike, decimal, epochMs, id64, intLike, optDecimal, optText } from '../wire/schema.js';
import { tolerantList } from '../wire/tolerant-list.js';

/** Copy-trading follower payloads (document 001 "Follower resources", API-NOTES §5.13). */

/** 0 short, 1 long. */
const isLong = intLike.pipe(z.union([z.literal(0), z.literal(1)]));

/** A count sent as a string ("1") or a number. */
const count = intLike.pipe(z.number().int().nonnegative());

/** GET /orders/current item: strings are "" when unset, and such fields are left absent. */
export const followerPositionSchema = z.object({
  leaderUserId: id64,
  leaderNickname: optText,
  leaderAvatar: optText,
  symbolId: z.string().min(1),
  isLong,
  positionType: intLike,
  leverage: optDecimal,
  openAvgPrice: optDecimal,
  markPrice: optDecimal,
  currentPrice: optDecimal,
  quantity: optDecimal,
  margin: optDecimal,
  liquidationPrice: optDecimal,
  unrealizedProfit: optDecimal,
  unrealizedProfitRate: optDecimal,
  stopProfitRate: optDecimal,
  stopLossRate: optDecimal,
});
export type FollowerPosition = z.output<typeof followerPositionSchema>;
export const followerPositionsSchema = tolerantList(followerPositionSchema);

/** GET /orders/history `data.list` item. */
export const followerHistoryRowSchema = z.object({
  symbolId: z.string().min(1),
  positionType: intLike,
  leverage: decimal,
  isLong,
  leaderNickname: optText,
  leaderAvatar: optText,
  openTimeMs: epochMs,
  lastCloseTimeMs: epochMs,
  openAvgPrice: decimal,
  closeAvgPrice: decimal,
  maxPositionQuantity: decimal,
  closedQuantity: decimal,
  realizedProfit: decimal,
  closeStatus: intLike,
});
export type FollowerHistoryRow = z.output<typeof followerHistoryRowSchema>;

/** GET /orders/history `data`: pages and total arrive as strings and become numbers. */
export const followerHistoryPageSchema = z.object({
  pages: count,
  total: count,
  list: tolerantList(followerHistoryRowSchema),
});
export type FollowerHistoryPage = z.output<typeof followerHistoryPageSchema>;

/** GET /config `data`. */
export const followerConfigSchema = z.object({
  leaderUserId: id64,
  investAmount: decimal,
  singlePlaceAmount: decimal,
  dailyMaxInvestAmount: decimal,
  leverage: decimal,
  maxInvestRate: decimal,
  stopProfitRate: decimal,
  stopLossRate: decimal,
  followAmountMode: intLike,
  stopLossDelay: intLike,
  isolatedReservedAmount: decimal,
  followMarginType: intLike,
  followSymbolIds: z.string(),
  zeroSlippageSwitch: boolLike,
});
export type FollowerConfig = z.output<typeof followerConfigSchema>;

/** GET /leaders item. */
export const leaderSummarySchema = z.object({
  leaderUserId: id64,
  leaderNickname: optText,
  leaderAvatar: optText,
  marginBalance: decimal,
  availableMargin: decimal,
  unrealisedPnl: decimal,
  realisedProfit: decimal,
  holdingProfitSharing: decimal,
  settledProfitSharing: decimal,
  netProfit: decimal,
});
export type LeaderSummary = z.output<typeof leaderSummarySchema>;
export const leaderSummariesSchema = tolerantList(leaderSummarySchema);
