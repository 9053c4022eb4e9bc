import { Decimal } from '../../../core/decimal.js';
import type { ClosedCopy } from '../position.js';
import type { CopyPositionSnapshot, HistoryPage, LeaderSummarySnapshot } from '../trading-desk.js';
import type { FollowConfig } from '../follow-config.js';
import { CLOSE_STATUS, POSITION_TYPE } from '../wire-codes.js';

/**
 * The follower payloads, field for field as API-NOTES §5.13 shows them: decimals and 64-bit ids as
 * strings, "" for what is unset on current positions, integers for isLong, positionType, closeStatus,
 * followAmountMode, stopLossDelay, followMarginType, a boolean zeroSlippageSwitch.
 */

/** Leaders of the sim config have no avatar. */
const NO_AVATAR = '';

/** Money and PnL: 8 decimal places at most. */
function money(value: Decimal): string {
  return value.toDecimalPlaces(8).toFixed();
}

/** A rate on positions (the docs show four places, cut: 0.93158… → "0.9315"). */
function rate(value: Decimal): string {
  return value.toDecimalPlaces(4, Decimal.ROUND_DOWN).toFixed();
}

/** A stop rate on a position: "" when not configured. */
function stopRate(value: Decimal): string {
  return value.isZero() ? '' : value.toFixed();
}

export function renderCurrentPosition(s: CopyPositionSnapshot): Record<string, unknown> {
  const p = s.position;
  return {
    leaderUserId: p.leaderUserId,
    leaderNickname: s.leaderNickname,
    leaderAvatar: NO_AVATAR,
    symbolId: p.symbol,
    isLong: p.isLong ? 1 : 0,
    positionType: POSITION_TYPE[p.marginType],
    leverage: p.leverage.toFixed(),
    openAvgPrice: p.openPrice.toFixed(),
    markPrice: s.markPrice ?? '',
    currentPrice: s.lastPrice ?? '',
    quantity: p.quantity.toFixed(),
    margin: money(p.margin),
    // Copies are not liquidated in the simulator; the docs' cross example also leaves it empty.
    liquidationPrice: '',
    unrealizedProfit: money(s.unrealizedProfit),
    unrealizedProfitRate: rate(s.unrealizedProfitRate),
    stopProfitRate: stopRate(p.stopProfitRate),
    stopLossRate: stopRate(p.stopLossRate),
  };
}

export function renderHistoryRow(row: ClosedCopy, leaderNickname: string): Record<string, unknown> {
  const p = row.position;
  return {
    symbolId: p.symbol,
    positionType: POSITION_TYPE[p.marginType],
    leverage: p.leverage.toFixed(),
    isLong: p.isLong ? 1 : 0,
    leaderNickname,
    leaderAvatar: NO_AVATAR,
    openTimeMs: String(p.openTime),
    lastCloseTimeMs: String(row.closeTime),
    openAvgPrice: p.openPrice.toFixed(),
    closeAvgPrice: row.closePrice.toFixed(),
    // Copies open and close whole: the largest size is the closed size.
    maxPositionQuantity: p.quantity.toFixed(),
    closedQuantity: p.quantity.toFixed(),
    realizedProfit: money(row.realizedProfit),
    closeStatus: CLOSE_STATUS[row.reason],
  };
}

export function renderHistoryPage(page: HistoryPage, nicknameOf: (leaderUserId: string) => string): Record<string, unknown> {
  return {
    pages: String(page.pages),
    total: String(page.total),
    list: page.rows.map((row) => renderHistoryRow(row, nicknameOf(row.position.leaderUserId))),
  };
}

/** GET /config: stop rates are "0" when unset here (the config fields are always decimals). */
export function renderConfig(c: FollowConfig): Record<string, unknown> {
  return {
    leaderUserId: c.leaderUserId,
    investAmount: c.investAmount.toFixed(),
    singlePlaceAmount: c.singlePlaceAmount.toFixed(),
    dailyMaxInvestAmount: c.dailyMaxInvestAmount.toFixed(),
    leverage: c.leverage.toFixed(),
    maxInvestRate: c.maxInvestRate.toFixed(),
    stopProfitRate: c.stopProfitRate.toFixed(),
    stopLossRate: c.stopLossRate.toFixed(),
    followAmountMode: c.followAmountMode,
    stopLossDelay: c.stopLossDelay,
    isolatedReservedAmount: c.isolatedReservedAmount.toFixed(),
    followMarginType: c.followMarginType,
    followSymbolIds: c.followSymbolIds,
    zeroSlippageSwitch: c.zeroSlippageSwitch,
  };
}

export function renderLeaderSummary(s: LeaderSummarySnapshot): Record<string, unknown> {
  const f = s.figures;
  return {
    leaderUserId: s.leaderUserId,
    leaderNickname: s.nickname,
    leaderAvatar: NO_AVATAR,
    marginBalance: money(f.marginBalance),
    availableMargin: money(f.availableMargin),
    unrealisedPnl: money(f.unrealisedPnl),
    realisedProfit: money(f.realisedProfit),
    holdingProfitSharing: money(f.holdingProfitSharing),
    settledProfitSharing: money(f.settledProfitSharing),
    netProfit: money(f.netProfit),
  };
}
