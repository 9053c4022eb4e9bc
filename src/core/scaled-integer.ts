import { Decimal } from './decimal.js';

/** The most decimal places a value may have in this file's integer forms: 10^15 is the largest power `powerOfTen` holds. */
export const MAX_EXACT_SCALE = 15;
const POWERS = Array.from({ length: MAX_EXACT_SCALE + 1 }, (_, i) => 10 ** i);
/** decimal.js's digit word: 7 decimal digits (base 1e7). */
const WORD_DIGITS = 7;

/**
 * `x × 10^scale` as a safe integer when it is one exactly (x finite, on that grid, below 2^53);
 * `undefined` otherwise. Read from decimal.js's digits: no Decimal is made.
 */
export function scaledInteger(x: Decimal, scale: number): number | undefined {
  const words = x.d;
  if (!x.isFinite()) return undefined;
  const first = words[0]!;
  if (first === 0) return 0;
  let mantissa = first;
  let digits = 1;
  while (digits < 7 && first >= POWERS[digits]!) digits++;
  const last = words.length - 1;
  for (let i = 1; i <= last; i++) {
    let word = words[i]!;
    let width = 7;
    // The last word's trailing zeros are not digits of the value (0.5 is the word 5000000).
    if (i === last) {
      while (word % 10 === 0) {
        word /= 10;
        width--;
      }
    }
    mantissa = mantissa * POWERS[width]! + word;
    if (!Number.isSafeInteger(mantissa)) return undefined;
    digits += width;
  }
  const shift = x.e + 1 - digits + scale;
  let units: number;
  if (shift >= 0) {
    if (shift > MAX_EXACT_SCALE) return undefined;
    units = mantissa * POWERS[shift]!;
    if (!Number.isSafeInteger(units)) return undefined;
  } else {
    if (shift < -MAX_EXACT_SCALE) return undefined;
    const divisor = POWERS[-shift]!;
    if (mantissa % divisor !== 0) return undefined;
    units = mantissa / divisor;
  }
  return x.s < 0 ? -units : units;
}

interface DecimalParts {
  s: number;
  e: number;
  d: number[];
}

/**
 * `units × 10^−scale` as a decimal (exact: a safe integer has at most 16 digits), built from its digit
 * words as decimal.js's string parser lays them out (the first word down to a multiple of 7 of the
 * exponent, then 7 digits each, the last padded with zeros), without making and parsing the text.
 */
export function decimalOfScaled(units: number, scale: number): Decimal {
  const x = new Decimal(0) as unknown as DecimalParts;
  if (units === 0) return x as unknown as Decimal;
  x.s = units < 0 ? -1 : 1;
  let mantissa = Math.abs(units);
  let places = scale;
  while (mantissa % 10 === 0) {
    mantissa /= 10;
    places--;
  }
  let digits = 1;
  while (digits < 16 && mantissa >= POWERS[digits]!) digits++;
  const e = digits - 1 - places;
  const head = (e + 1) % WORD_DIGITS;
  const first = head > 0 ? head : head + WORD_DIGITS;
  let rest = digits - first;
  if (rest <= 0) {
    x.e = e;
    x.d = [(mantissa * POWERS[-rest]!) | 0];
    return x as unknown as Decimal;
  }
  // Words below 1e7 as int32 (`| 0`): decimal.js's arrays are packed small integers, and a word array of
  // doubles would make every reader of digit words (decimal.js, compareDecimals) see a second element kind.
  // At most 16 digits: the first word and up to three more, laid out as one literal of its final length
  // (a literal pushed to grows its backing store past what it keeps: ~150 bytes per decimal).
  const top = Math.floor(mantissa / POWERS[rest]!) | 0;
  let remainder = mantissa % POWERS[rest]!;
  let count = 0;
  let w1 = 0;
  let w2 = 0;
  let w3 = 0;
  while (rest > 0) {
    const take = Math.min(WORD_DIGITS, rest);
    rest -= take;
    const chunk = Math.floor(remainder / POWERS[rest]!);
    remainder %= POWERS[rest]!;
    const word = (chunk * POWERS[WORD_DIGITS - take]!) | 0;
    count++;
    if (count === 1) w1 = word;
    else if (count === 2) w2 = word;
    else w3 = word;
  }
  const words = count === 1 ? [top, w1] : count === 2 ? [top, w1, w2] : [top, w1, w2, w3];
  x.e = e;
  x.d = words;
  return x as unknown as Decimal;
}

/**
 * `units × 10^−from` as a count of 10^−`to` (`scaledInteger` of that value at `to`, without its decimal):
 * undefined when it is off that grid or not a safe integer.
 */
export function rescaled(units: number, from: number, to: number): number | undefined {
  if (units === 0) return 0;
  const shift = to - from;
  if (shift >= 0) {
    if (shift > MAX_EXACT_SCALE) return undefined;
    const result = units * POWERS[shift]!;
    return Number.isSafeInteger(result) ? result : undefined;
  }
  if (shift < -MAX_EXACT_SCALE) return undefined;
  const divisor = POWERS[-shift]!;
  return units % divisor === 0 ? units / divisor : undefined;
}

/** `10^n` for 0 ≤ n ≤ 15 (exact in a double). */
export function powerOfTen(n: number): number {
  return POWERS[n]!;
}

/**
 * `(a + b) / 2`, the same decimal as `a.plus(b).div(2)` (digit words and all) with one Decimal made
 * instead of four: both on the grid of the finer one's decimal places, summed and halved as safe
 * integers (an odd sum is ×5 one place finer), exact where decimal.js is exact too (≤ 17 digits).
 * Values that do not fit go through decimal.js.
 */
export function midpoint(a: Decimal, b: Decimal): Decimal {
  if (a.isFinite() && b.isFinite()) {
    const scale = Math.max(a.decimalPlaces(), b.decimalPlaces());
    const x = scaledInteger(a, scale);
    const y = scaledInteger(b, scale);
    const mid = x === undefined || y === undefined ? undefined : midpointOfScaled(x, y, scale);
    if (mid !== undefined) return mid;
  }
  return a.plus(b).div(2);
}

/**
 * `midpoint` of `x × 10^−scale` and `y × 10^−scale` (safe integers), the same decimal, from the integers
 * alone (a caller holding prices as units of a grid needs no decimal of them); undefined where `midpoint`
 * goes through decimal.js (a scale of 15 or more, a sum beyond 2^53).
 */
export function midpointOfScaled(x: number, y: number, scale: number): Decimal | undefined {
  const sum = scale >= MAX_EXACT_SCALE ? Number.NaN : x + y;
  if (!Number.isSafeInteger(sum)) return undefined;
  if (sum % 2 === 0) return decimalOfScaled(sum / 2, scale);
  return Number.isSafeInteger(sum * 5) ? decimalOfScaled(sum * 5, scale + 1) : undefined;
}

/** How `onGrid` rounds a value between two multiples of the step (decimal.js's modes of the same names). */
export type GridRounding = typeof Decimal.ROUND_FLOOR | typeof Decimal.ROUND_CEIL | typeof Decimal.ROUND_DOWN | typeof Decimal.ROUND_HALF_UP;

/**
 * `x.toNearest(step, rounding)`, the same decimal with one made instead of five: for a positive `x`
 * and `step` on a common grid of safe integers, the multiple found by integer remainder (exact) and
 * built from its units. Anything else goes through decimal.js. `places`, when the caller has them:
 * the larger of `x`'s and `step`'s decimal places.
 */
export function onGrid(x: Decimal, step: Decimal, rounding: GridRounding, places?: number): Decimal {
  if (x.isFinite() && step.isFinite() && x.s > 0 && step.s > 0 && !step.isZero()) {
    const scale = places ?? Math.max(x.decimalPlaces(), step.decimalPlaces());
    const units = scale <= MAX_EXACT_SCALE ? scaledInteger(x, scale) : undefined;
    const stepUnits = units === undefined ? undefined : scaledInteger(step, scale);
    if (stepUnits !== undefined) {
      const remainder = units! % stepUnits;
      let count = (units! - remainder) / stepUnits;
      if (remainder !== 0 && (rounding === Decimal.ROUND_CEIL || (rounding === Decimal.ROUND_HALF_UP && remainder * 2 >= stepUnits))) count++;
      const result = count * stepUnits;
      if (Number.isSafeInteger(result)) return decimalOfScaled(result, scale);
    }
  }
  return x.toNearest(step, rounding);
}
