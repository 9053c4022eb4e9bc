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

/**
 * x's places when its digits may be read as a safe integer at them, or -1 (zero, non-finite, more than 15
 * places). A number and `unitsAt`, not an object per operand: every fill's steps read operands.
 */
function exactPlaces(x: Decimal): number {
  if (x.isZero()) return -1;
  const places = x.decimalPlaces();
  return places <= MAX_EXACT_SCALE ? places : -1;
}

/** x's digits at `places` (from `exactPlaces`), or undefined (no places, beyond 2^53). */
function unitsAt(x: Decimal, places: number): number | undefined {
  return places < 0 ? undefined : scaledInteger(x, places);
}

function summed(a: Decimal, b: Decimal, sign: 1 | -1): Decimal | undefined {
  const xs = exactPlaces(a);
  const ys = exactPlaces(b);
  const xd = unitsAt(a, xs);
  const yd = unitsAt(b, ys);
  // 0 + b and a ± 0 are b and a themselves (at most 16 digits: within the precision).
  if (yd !== undefined && sign === 1 && xd === undefined && a.isZero()) return b;
  if (xd !== undefined && yd === undefined && b.isZero()) return a;
  if (xd === undefined || yd === undefined) return undefined;
  const scale = xs > ys ? xs : ys;
  const xu = xd * powerOfTen(scale - xs);
  const yu = yd * powerOfTen(scale - ys);
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
  const xs = exactPlaces(a);
  const xd = unitsAt(a, xs);
  const ys = xd === undefined ? -1 : exactPlaces(b);
  const yd = unitsAt(b, ys);
  if (xd !== undefined && yd !== undefined) {
    const units = xd * yd;
    if (isSafeInteger(units)) return decimalOfScaled(units, xs + ys);
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
  const places = exactPlaces(a);
  const digits = unitsAt(a, places);
  if (digits === undefined || !(isSafeInteger(n) && n > 0 && isSafeInteger(d) && d > 0)) return undefined;
  let units = digits * n;
  let scale = places;
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
  // A zero weight: its side counts 0 at scale 0.
  const xs = ca.isZero() ? 0 : exactPlaces(a);
  const x = ca.isZero() ? 0 : unitsAt(a, xs);
  const ys = exactPlaces(p);
  const y = unitsAt(p, ys);
  const was = ca.isZero() ? 0 : exactPlaces(ca);
  const wa = ca.isZero() ? 0 : unitsAt(ca, was);
  const wps = exactPlaces(cp);
  const wp = unitsAt(cp, wps);
  if (x !== undefined && y !== undefined && wa !== undefined && wp !== undefined) {
    const scale = xs > ys ? xs : ys;
    const weightScale = was > wps ? was : wps;
    const xa = x * powerOfTen(scale - xs) * (wa * powerOfTen(weightScale - was));
    const wpUnits = wp * powerOfTen(weightScale - wps);
    const yp = y * powerOfTen(scale - ys) * wpUnits;
    const total = xa + yp;
    const weight = wa * powerOfTen(weightScale - was) + wpUnits;
    if (isSafeInteger(xa) && isSafeInteger(yp) && isSafeInteger(total) && isSafeInteger(weight) && weight > 0 && total % weight === 0) {
      const units = total / weight;
      if (units !== 0) return decimalOfScaled(units, scale);
    }
  }
  return a.mul(ca).add(p.mul(cp)).div(ca.add(cp));
}
