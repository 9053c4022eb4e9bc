import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { FollowConfig } from './follow-config.js';

export interface CopySizing {
  readonly config: FollowConfig;
  /** Margin of the leader's new position and the leader's margin balance before it. */
  readonly leaderMargin: Decimal;
  readonly leaderMarginBalance: Decimal;
  /** Margin in the follower's open copies of this leader. */
  readonly investedOpen: Decimal;
  /** Margin this follow already invested on the current UTC day. */
  readonly investedToday: Decimal;
  /** The follower's free copy-trading funds in the margin coin. */
  readonly freeFunds: Decimal;
}

/**
 * Margin of one copied order. Fixed amount (mode 0): singlePlaceAmount. Fixed rate (mode 1): the
 * leader's share of its margin balance put into the order, times investAmount, at most
 * maxInvestRate × investAmount (maxInvestRate 0: no cap). Then capped by what is left of
 * investAmount beside the open copies, of dailyMaxInvestAmount today (0: no limit) and of the free
 * funds. Zero or less: no copy.
 */
export function copyMargin(s: CopySizing): Decimal {
  const c = s.config;
  let margin: Decimal;
  if (c.followAmountMode === 0) margin = c.singlePlaceAmount;
  else {
    const share = s.leaderMarginBalance.gt(0) ? s.leaderMargin.div(s.leaderMarginBalance) : dec(0);
    margin = share.mul(c.investAmount);
    if (c.maxInvestRate.gt(0)) margin = smaller(margin, c.maxInvestRate.mul(c.investAmount));
  }
  margin = smaller(margin, c.investAmount.sub(s.investedOpen));
  if (c.dailyMaxInvestAmount.gt(0)) margin = smaller(margin, c.dailyMaxInvestAmount.sub(s.investedToday));
  margin = smaller(margin, s.freeFunds);
  return margin.gt(0) ? margin : dec(0);
}

function smaller(a: Decimal, b: Decimal): Decimal {
  return a.lte(b) ? a : b;
}
