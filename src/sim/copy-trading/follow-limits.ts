import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';

/**
 * Minimums and maximums of PUT /config that no endpoint publishes (document 001: "The endpoint for
 * maximum and minimum follow order quantity is not provided"). The simulator's values; the synthetic
 * leaders set no per-order minimum of their own, so the system one applies to them.
 */
export interface FollowLimits {
  /** Per-order minimum of fixed-amount follow (rules 4, 6, 7), in the margin coin. */
  readonly minSingleAmount: Decimal;
  /** Minimum invested amount of fixed-rate follow (rules 5, 6). */
  readonly minFixedRateAmount: Decimal;
  /** System maximum follow leverage (rule 8). */
  readonly maxFollowLeverage: Decimal;
}

export const DEFAULT_FOLLOW_LIMITS: FollowLimits = {
  minSingleAmount: dec('5'),
  minFixedRateAmount: dec('50'),
  maxFollowLeverage: dec('125'),
};

/** Rule 9: a stop rate is 0 (not configured) or at least this. */
export const MIN_STOP_RATE = dec('0.01');

/** Rules 1 and 2: decimals carry at most this many places. */
export const MAX_DECIMAL_PLACES = 8;

export function followLimits(overrides: Partial<FollowLimits> = {}): FollowLimits {
  return { ...DEFAULT_FOLLOW_LIMITS, ...overrides };
}
