import type { Decimal } from '../../core/decimal.js';
import { invariant } from '../../core/errors.js';
import { err, ok } from '../../core/result.js';
import type { SimReject, SimResult } from '../engine/types.js';
import type { FollowAmountMode, FollowConfig, FollowConfigRequest, FollowMarginType } from './follow-config.js';
import type { FollowLimits } from './follow-limits.js';
import { MAX_DECIMAL_PLACES, MIN_STOP_RATE } from './follow-limits.js';
import { followerRejects } from './follower/rejects.js';

/** What the rules need to know besides the request. */
export interface ConfigRuleContext {
  readonly limits: FollowLimits;
  /** The leader's own per-order minimum, when it sets one above the system's. */
  readonly leaderMinSingleAmount?: Decimal;
  /** Is `symbol` a listed contract? */
  readonly isSymbol: (symbol: string) => boolean;
  /** The existing follow of this leader: its leverage, and whether copy positions are open (rule 8). */
  readonly current?: { readonly leverage: Decimal; readonly hasCopyPositions: boolean };
}

/** Rule 1 fields, in the order the spec lists them. */
const AMOUNT_FIELDS = [
  'investAmount',
  'singlePlaceAmount',
  'dailyMaxInvestAmount',
  'leverage',
  'stopProfitRate',
  'stopLossRate',
  'realInvestAmount',
  'isolatedReservedAmount',
] as const;

/**
 * The ten rules of PUT /config (document 001), checked in order; the first violation is a -1130
 * naming its field. Beyond the client's local checks (src/venue/api/follower-config-rules.ts, which
 * must accept everything this accepts) it knows the minimums, the listed symbols and the open copies.
 */
export function checkConfigRules(request: FollowConfigRequest, context: ConfigRuleContext): SimResult<FollowConfig> {
  const problem = firstProblem(request, context);
  if (problem !== undefined) return err(problem);
  const { followAmountMode, followMarginType } = request;
  invariant(isAmountMode(followAmountMode) && isMarginType(followMarginType), 'FOLLOW_RULES', 'rule 10 let an unknown mode through');
  return ok({ ...request, followAmountMode, followMarginType, symbols: symbolSet(request.followSymbolIds) });
}

function firstProblem(r: FollowConfigRequest, context: ConfigRuleContext): SimReject | undefined {
  const invalid = followerRejects.invalid;
  const { limits } = context;
  const leaderMin = context.leaderMinSingleAmount;
  const minSingle = leaderMin !== undefined && leaderMin.gt(limits.minSingleAmount) ? leaderMin : limits.minSingleAmount;
  // 1. amounts: at most 8 decimal places, not negative.
  for (const field of AMOUNT_FIELDS) {
    const v = r[field];
    if (v.decimalPlaces() > MAX_DECIMAL_PLACES || v.isNegative()) return invalid(field);
  }
  // 2. maxInvestRate: at most 8 decimal places, 0 to 1.
  if (r.maxInvestRate.decimalPlaces() > MAX_DECIMAL_PLACES || r.maxInvestRate.isNegative() || r.maxInvestRate.gt(1)) return invalid('maxInvestRate');
  // 3. followSymbolIds: `all` alone, or listed symbol ids without empty parts.
  if (!symbolIdsValid(r.followSymbolIds, context.isSymbol)) return invalid('followSymbolIds');
  // 4. fixed amount: per-order minimum; realInvestAmount covers the reserve and one order.
  if (r.followAmountMode === 0) {
    if (r.singlePlaceAmount.lt(minSingle)) return invalid('singlePlaceAmount');
    if (r.realInvestAmount.lt(r.isolatedReservedAmount.add(r.singlePlaceAmount))) return invalid('realInvestAmount');
  }
  // 5. fixed rate: realInvestAmount covers the reserve and the fixed-rate minimum.
  if (r.followAmountMode === 1 && r.realInvestAmount.lt(r.isolatedReservedAmount.add(limits.minFixedRateAmount))) return invalid('realInvestAmount');
  // 6. investAmount (the total after the update) meets the minimum of the mode.
  const modeMin = r.followAmountMode === 0 ? minSingle : r.followAmountMode === 1 ? limits.minFixedRateAmount : undefined;
  if (modeMin !== undefined && r.investAmount.lt(modeMin)) return invalid('investAmount');
  // 7. dailyMaxInvestAmount: 0 (no limit) or at least the per-order minimum.
  if (!r.dailyMaxInvestAmount.isZero() && r.dailyMaxInvestAmount.lt(minSingle)) return invalid('dailyMaxInvestAmount');
  // 8. leverage: at most the system maximum; unchanged while copy positions are open.
  if (r.leverage.gt(limits.maxFollowLeverage)) return invalid('leverage');
  const current = context.current;
  if (current !== undefined && current.hasCopyPositions && !current.leverage.eq(r.leverage)) return invalid('leverage');
  // 9. stop rates: 0 (not configured) or at least 0.01.
  if (!stopRateValid(r.stopProfitRate)) return invalid('stopProfitRate');
  if (!stopRateValid(r.stopLossRate)) return invalid('stopLossRate');
  // 10. followMarginType 0, 1 or 2; followAmountMode 0 or 1; stopLossDelay whole seconds.
  if (!isMarginType(r.followMarginType)) return invalid('followMarginType');
  if (!isAmountMode(r.followAmountMode)) return invalid('followAmountMode');
  if (r.stopLossDelay < 0) return invalid('stopLossDelay');
  return undefined;
}

/** A stop rate is 0 (not configured) or at least 0.01, with at most 8 decimal places. */
export function stopRateValid(rate: Decimal): boolean {
  return rate.decimalPlaces() <= MAX_DECIMAL_PLACES && (rate.isZero() || rate.gte(MIN_STOP_RATE));
}

function isAmountMode(n: number): n is FollowAmountMode {
  return n === 0 || n === 1;
}

function isMarginType(n: number): n is FollowMarginType {
  return n === 0 || n === 1 || n === 2;
}

function symbolIdsValid(ids: string, isSymbol: (symbol: string) => boolean): boolean {
  if (ids.trim() === '') return false;
  const parts = ids.split(',');
  if (parts.length === 1 && isAll(ids)) return true;
  return parts.every((p) => p !== '' && !/\s/.test(p) && !isAll(p) && isSymbol(p));
}

function symbolSet(ids: string): ReadonlySet<string> | undefined {
  return isAll(ids) ? undefined : new Set(ids.split(','));
}

function isAll(text: string): boolean {
  return text.toLowerCase() === 'all';
}
