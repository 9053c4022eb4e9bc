import type { Decimal } from '../core/decimal.js';
import type { ProtectionSpec } from './protections.js';

/**
 * Limits the risk engine enforces on opening orders (closing orders and cancels are never held back by
 * them). Every field is optional: absent means no limit. Quantities are contracts.
 */
export interface RiskLimits {
  /** Contracts per symbol and position side: position + open orders that add to it + this order. */
  readonly maxPosition?: Decimal;
  /**
   * Quote notional per symbol and direction: position + open orders of the same direction + this order,
   * valued at mark price × contractMultiplier.
   */
  readonly maxNotional?: Decimal;
  /**
   * Effective leverage: total open position notional (this order included) / account equity (wallet +
   * unrealized PnL) in the instrument's margin asset.
   */
  readonly maxLeverage?: Decimal;
  /** Open regular + plan/TP-SL orders. */
  readonly maxOpenOrders?: number;
  /** Approved placing and modifying commands in any sliding 60-second window. */
  readonly maxOrdersPerMinute?: number;
  /**
   * A LIMIT price may differ from the mark price by at most this many percent (5 = 5%); with a band
   * configured, opening orders also need a known mark price.
   */
  readonly priceBandPct?: Decimal;
}

/** Limits over all strategies together, plus the daily-loss kill switch. */
export interface GlobalRiskLimits extends RiskLimits {
  /**
   * A positive quote amount. Day PnL = realized PnL − fees + funding + change of unrealized PnL since
   * the day's start; a day PnL at or below −dailyLossLimit engages the kill switch.
   */
  readonly dailyLossLimit?: Decimal;
  /** Layered protections (trailing drawdown, loss streaks, cooldowns, caps…), evaluated by the risk engine; see model/protections.ts. */
  readonly protections?: readonly ProtectionSpec[];
}
