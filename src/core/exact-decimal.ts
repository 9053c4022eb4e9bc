import type { Decimal } from './decimal.js';
import { dec } from './decimal.js';
import { MAX_EXACT_SCALE, decimalOfScaled, powerOfTen, scaledInteger } from './scaled-integer.js';

/**
 * decimal.js's sum, difference and product of two decimals (and quotient by a whole number), made from
 * their digits as safe integers when the operands are nonzero with at most 15 places and the exact result
 * fits a safe integer: it then has at most 16 digits, which decimal.js's 20-digit step gives exactly, so
 * the value is the same (an exact zero from nonzero operands is decimal.js's unsigned zero). Otherwise,
 * decimal.js's own step. Made for hot paths: no decimal is made for an operand, one for the result.
 */

const ZERO = dec(0);
const { isSafeInteger } = Number;

/** x's digits at its own places, or undefined (zero, non-finite, more than 15 places, beyond 2^53). */
function digitsOf(x: Decimal): { units: number; scale: number } | undefined {
  if (x.isZero()) return undefined;
  const scale = x.decimalPlaces();
  if (!(scale <= MAX_EXACT_SCALE)) return undefined;
  const units = scaledInteger(x, scale);
  return units === undefined ? undefined : { units, scale };
}

function summed(a: Decimal, b: Decimal, sign: 1 | -1): Decimal | undefined {
  const x = digitsOf(a);
  const y = digitsOf(b);
  // 0 + b and a ± 0 are b and a themselves (at most 16 digits: within the precision).
  if (y !== undefined && sign === 1 && x === undefined && a.isZero()) return b;
  if (x !== undefined && y === undefined && b.isZero()) return a;
  if (x === undefined || y === undefined) return undefined;
  const scale = x.scale > y.scale ? x.scale : y.scale;
  const xu = x.units * powerOfTen(scale - x.scale);
  const yu = y.units * powerOfTen(scale - y.scale);
  const units = xu + sign * yu;
  if (!isSafeInteger(xu) || !isSafeInteger(yu) || !isSafeInteger(units)) return undefined;
  return units === 0 ? ZERO : decimalOfScaled(units, scale);
}

/** `a.add(b)`. */
export function plusExact(a: Decimal, b: Decimal): Decimal {
  return summed(a, b, 1) ?? a.add(b);
}

/** `a.sub(b)`. */
export function minusExact(a: Decimal, b: Decimal): Decimal {
  return summed(a, b, -1) ?? a.sub(b);
}

/** `a.mul(b)`. */
export function timesExact(a: Decimal, b: Decimal): Decimal {
  const x = digitsOf(a);
  const y = x === undefined ? undefined : digitsOf(b);
  if (x !== undefined && y !== undefined) {
    const units = x.units * y.units;
    if (isSafeInteger(units)) return decimalOfScaled(units, x.scale + y.scale);
  }
  return a.mul(b);
}

/** `a.mul(n).div(d)` for whole numbers n, d > 0: in digits when a × n fits and d divides it within 15 places. */
export function timesRatioExact(a: Decimal, n: number, d: number): Decimal {
  return ratioInDigits(a, n, d) ?? (n === 1 ? a.div(d) : a.mul(n).div(d));
}

/**
 * a × n / d exactly, for whole numbers n, d > 0, when a is nonzero, a × n fits and d divides it within 15
 * places (at most 16 digits: the value decimal.js's steps give too); undefined otherwise.
 */
export function ratioInDigits(a: Decimal, n: number, d: number): Decimal | undefined {
  const x = digitsOf(a);
  if (x === undefined || !(isSafeInteger(n) && n > 0 && isSafeInteger(d) && d > 0)) return undefined;
  let units = x.units * n;
  let scale = x.scale;
  while (isSafeInteger(units)) {
    if (units % d === 0) return decimalOfScaled(units / d, scale);
    if (scale === MAX_EXACT_SCALE) break;
    units *= 10;
    scale++;
  }
  return undefined;
}

/** `a.div(d)` for a whole number d > 0 (see `timesRatioExact`). */
export function dividedExact(a: Decimal, d: number): Decimal {
  return timesRatioExact(a, 1, d);
}

/**
 * `a.mul(ca).add(p.mul(cp)).div(ca.add(cp))`, the average of a and p weighted by ca and cp (cp > 0): in
 * digits when every step fits and the weighted sum divides exactly within the larger scale.
 */
export function weightedAverageExact(a: Decimal, ca: Decimal, p: Decimal, cp: Decimal): Decimal {
  const x = ca.isZero() ? { units: 0, scale: 0 } : digitsOf(a);
  const y = digitsOf(p);
  const wa = ca.isZero() ? { units: 0, scale: 0 } : digitsOf(ca);
  const wp = digitsOf(cp);
  if (x !== undefined && y !== undefined && wa !== undefined && wp !== undefined) {
    const scale = x.scale > y.scale ? x.scale : y.scale;
    const weightScale = wa.scale > wp.scale ? wa.scale : wp.scale;
    const xa = x.units * powerOfTen(scale - x.scale) * (wa.units * powerOfTen(weightScale - wa.scale));
    const wpUnits = wp.units * powerOfTen(weightScale - wp.scale);
    const yp = y.units * powerOfTen(scale - y.scale) * wpUnits;
    const total = xa + yp;
    const weight = wa.units * powerOfTen(weightScale - wa.scale) + wpUnits;
    if (isSafeInteger(xa) && isSafeInteger(yp) && isSafeInteger(total) && isSafeInteger(weight) && weight > 0 && total % weight === 0) {
      const units = total / weight;
      if (units !== 0) return decimalOfScaled(units, scale);
    }
  }
  return a.mul(ca).add(p.mul(cp)).div(ca.add(cp));
}
