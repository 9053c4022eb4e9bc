import type { Decimal } from './decimal.js';
import { compareDecimals } from './decimal.js';
import { MAX_EXACT_SCALE, powerOfTen, scaledInteger } from './scaled-integer.js';

/**
 * Comparisons of decimal.js results decided by double estimates where they are clearly on one side:
 * an estimate's error is below 1e-13 relative and decimal.js rounds each step at 1e-19, so outside a
 * 1e-9 margin the two answers cannot differ. Near the edge, the decimal steps answer; so do values
 * whose double would be subnormal or overflow (`approximately` answers NaN for them).
 */

/** Doubles below this (subnormal ones included) carry too few bits for the estimate. */
const SMALLEST = 1e-250;

/** `x` as a double from its first three digit words (relative error below 1e-13); NaN when not finite or out of a double's normal range. */
export function approximately(x: Decimal): number {
  if (!x.isFinite()) return Number.NaN;
  const words = x.d;
  const first = words[0]!;
  if (first === 0) return 0;
  let digits = 1;
  while (digits < 7 && first >= powerOfTen(digits)) digits++;
  const used = Math.min(words.length, 3);
  let mantissa = 0;
  for (let i = 0; i < used; i++) mantissa = mantissa * 1e7 + words[i]!;
  const exponent = x.e - digits + 1 - 7 * (used - 1);
  const magnitude = exponent >= 0 ? mantissa * 10 ** exponent : mantissa / 10 ** -exponent;
  if (!(magnitude >= SMALLEST && magnitude < Number.POSITIVE_INFINITY)) return Number.NaN;
  return x.s < 0 ? -magnitude : magnitude;
}

/** Relative margin outside which a double estimate decides a comparison (its error is below 1e-13; decimal.js rounds at 1e-19). */
export const ESTIMATE_MARGIN = 1e-9;

/**
 * `|a − b| / reference > bound`, the answer of `a.sub(b).abs().div(reference)` compared with `bound`
 * (decimal.js's 20-digit steps), with no decimal made when a double estimate is clearly on one side:
 * the difference exact in safe integers, divided as doubles. Near the bound, or for values that do not
 * fit, the decimal steps answer.
 */
export function distanceAbove(a: Decimal, b: Decimal, reference: Decimal, bound: Decimal): boolean {
  const scale = Math.max(a.decimalPlaces(), b.decimalPlaces());
  const x = scale <= MAX_EXACT_SCALE ? scaledInteger(a, scale) : undefined;
  const y = x === undefined ? undefined : scaledInteger(b, scale);
  const ref = approximately(reference);
  const limit = approximately(bound);
  if (y !== undefined && Number.isSafeInteger(x! - y) && ref > 0 && limit > 0) {
    const estimate = Math.abs(x! - y) / powerOfTen(scale) / ref;
    if (!Number.isFinite(estimate) || (estimate !== 0 && estimate < SMALLEST)) return compareDecimals(a.sub(b).abs().div(reference), bound) > 0;
    if (estimate > limit * (1 + ESTIMATE_MARGIN)) return true;
    if (estimate < limit * (1 - ESTIMATE_MARGIN)) return false;
  }
  return compareDecimals(a.sub(b).abs().div(reference), bound) > 0;
}

/**
 * The sign of `a × b (× c) − bound`, products as decimal.js's steps round them, when a double estimate
 * tells it; undefined when it is too close to tell (the caller makes the decimals).
 */
export function productSign(a: Decimal, b: Decimal, c: Decimal | undefined, bound: Decimal): -1 | 1 | undefined {
  const product = approximately(a) * approximately(b) * (c === undefined ? 1 : approximately(c));
  const limit = approximately(bound);
  if (!Number.isFinite(product) || Math.abs(product) < SMALLEST) return undefined;
  const margin = ESTIMATE_MARGIN * (Math.abs(product) + Math.abs(limit));
  if (product > limit + margin) return 1;
  if (product < limit - margin) return -1;
  return undefined;
}

/**
 * A whole number no larger than `⌊a / parts / b / c⌋` as decimal.js's 20-digit steps give it (all
 * positive; `parts` a whole number, left out when 1), from a double estimate taken 1e-9 short of
 * itself: one less where the quotient is that close to a whole number, and a billionth short of a
 * large one. Undefined when the estimate cannot tell (the caller divides the decimals). For bounds
 * that must not overshoot.
 */
export function quotientFloorAtMost(a: Decimal, parts: number, b: Decimal, c: Decimal): number | undefined {
  const quotient = approximately(a) / parts / approximately(b) / approximately(c);
  if (!(quotient >= 0 && quotient < Number.MAX_SAFE_INTEGER)) return undefined;
  return Math.floor(quotient * (1 - ESTIMATE_MARGIN));
}
