import type { Decimal } from '../core/decimal.js';

/**
 * Layered protections of the risk engine (config `risk.protections`). Each watches one condition, per
 * strategy or over the whole account, and when it trips applies its action until it resumes.
 *
 * - `block-entries`: new opening orders are denied; resting orders stay;
 * - `reduce-only`: new opening orders are denied and the covered opening orders are cancelled;
 * - `flatten`: as reduce-only, and the covered positions are closed (reduce-only MARKET orders);
 * - `pause`: every covered order is cancelled and opening orders are denied until `resumeAfterMs`.
 */
export type ProtectionAction = 'block-entries' | 'reduce-only' | 'flatten' | 'pause';
export const PROTECTION_ACTIONS: readonly ProtectionAction[] = ['block-entries', 'reduce-only', 'flatten', 'pause'];

/** `strategy`: each strategy on its own figures (one trip per strategy); `global`: the account's. */
export type ProtectionScope = 'strategy' | 'global';

interface Common {
  /** Unique among the protections; the kind unless configured (journal key, metric label, /status). */
  readonly name: string;
  readonly action: ProtectionAction;
  readonly scope: ProtectionScope;
  /** Resume this long after tripping; absent: when the condition clears (caps) or by hand / never (streaks, drawdown). */
  readonly resumeAfterMs?: number;
  /** Strategy scope only: the strategies it covers; absent: all. */
  readonly strategies?: readonly string[];
}

/** Equity falls `maxPct` percent (or `maxAmount` quote units) below its peak since start. */
export interface TrailingDrawdownSpec extends Common {
  readonly kind: 'trailingDrawdown';
  readonly maxPct?: Decimal;
  readonly maxAmount?: Decimal;
  /** Strategy scope: the capital the strategy's PnL is added to for its equity (default: the account's equity when first seen). */
  readonly capital?: Decimal;
}

/** `count` losing exits (closing fills whose realized PnL after fees is negative) within `windowMs`; a winning exit ends the streak. */
export interface StopLossStreakSpec extends Common {
  readonly kind: 'stopLossStreak';
  readonly count: number;
  readonly windowMs: number;
}

/** Every exit (a closing fill) trips it for `resumeAfterMs`. */
export interface CooldownSpec extends Common {
  readonly kind: 'cooldown';
}

/** Gross (sum of |notional|) and net (|long − short|) notional at mark, in quote units. */
export interface NotionalCapSpec extends Common {
  readonly kind: 'notionalCap';
  readonly maxGross?: Decimal;
  readonly maxNet?: Decimal;
}

/** Gross notional over account equity. */
export interface LeverageCapSpec extends Common {
  readonly kind: 'leverageCap';
  readonly max: Decimal;
}

/** Margin in use (position and order margin) over account equity, in percent. */
export interface MarginRatioCapSpec extends Common {
  readonly kind: 'marginRatioCap';
  readonly maxPct: Decimal;
}

/** Every covered position's liquidation price stays at least `minPct` percent from the mark price. */
export interface LiquidationDistanceSpec extends Common {
  readonly kind: 'liquidationDistance';
  readonly minPct: Decimal;
}

/** The daily-loss kill switch (`risk.dailyLossLimit`): global, held until the daily reset or an operator override. */
export interface DailyLossSpec extends Common {
  readonly kind: 'dailyLoss';
  readonly limit: Decimal;
}

export type ProtectionSpec =
  | TrailingDrawdownSpec
  | StopLossStreakSpec
  | CooldownSpec
  | NotionalCapSpec
  | LeverageCapSpec
  | MarginRatioCapSpec
  | LiquidationDistanceSpec
  | DailyLossSpec;

export type ProtectionKind = ProtectionSpec['kind'];

/** A tripped protection for one scope key ('global' or a strategy id). Times are epoch ms of the injected clock. */
export interface ProtectionTrip {
  readonly protection: string;
  readonly scopeKey: string;
  readonly action: ProtectionAction;
  readonly reason: string;
  readonly since: number;
  /** When it resumes by itself; undefined: when the condition clears, or by hand. */
  readonly resumeAt: number | undefined;
}

/** Scope key of the account-wide trip. */
export const GLOBAL_SCOPE = 'global';
