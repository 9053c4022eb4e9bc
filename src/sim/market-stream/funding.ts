/**
 * Funding in the usual perpetual style: the rate is the average premium of mark over index plus a
 * clamped interest term, capped at ±0.003 (API-NOTES §5.6: interest 0.0001, cap/floor 0.003), and
 * settles every 8 h at 00:00, 08:00 and 16:00 UTC.
 */
export const FUNDING_INTERVAL_MS = 8 * 3_600_000;
export const FUNDING_INTEREST_RATE = 0.0001;
export const FUNDING_RATE_CAP = 0.003;
const INTEREST_CLAMP = 0.0005;

/** Resolution of a published funding rate. */
export const FUNDING_RATE_STEP = '0.00000001';

/** The first settlement instant strictly after `ts`. Epoch 0 is 00:00 UTC, so multiples of 8 h fall on the boundaries. */
export function nextFundingBoundary(ts: number): number {
  return (Math.floor(ts / FUNDING_INTERVAL_MS) + 1) * FUNDING_INTERVAL_MS;
}

export function fundingRateFromPremium(averagePremium: number): number {
  const interest = Math.min(INTEREST_CLAMP, Math.max(-INTEREST_CLAMP, FUNDING_INTEREST_RATE - averagePremium));
  return Math.min(FUNDING_RATE_CAP, Math.max(-FUNDING_RATE_CAP, averagePremium + interest));
}
