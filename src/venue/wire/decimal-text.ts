import { Decimal, parseDecimal } from '../../core/decimal.js';

/** decimal.js's digit word: 7 decimal digits (base 1e7, its LOG_BASE). */
const WORD_DIGITS = 7;
const POWERS = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];
/** Longest text read here: its exponent stays far inside any sane Decimal.maxE / minE. */
const MAX_TEXT = 100;
/** The words of the text being read (at most 100 digits: 16 words), copied out at the end. */
const scratch: number[] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

interface DecimalParts {
  s: number;
  e: number;
  d: number[];
}

/**
 * `parseDecimal(text)` (core/decimal.ts) for the texts amounts come in on the wire, `[+-]digits[.digits]`,
 * in one pass over the characters: the same Decimal (sign, exponent and base-1e7 digit words, as
 * decimal.js's own string parser makes them) without its slices, replaces and regular expressions,
 * which were most of a reply's decimal cost (a 24h ticker has eleven amounts, an order row eight).
 * Anything else (an exponent, a stray character) goes to `parseDecimal`, which answers or refuses it.
 * decimal-text.test.ts holds it equal to `parseDecimal` over edge cases and random texts.
 */
export function decimalOfText(text: string): Decimal | undefined {
  const length = text.length;
  if (length === 0 || length > MAX_TEXT || Decimal.maxE < MAX_TEXT || Decimal.minE > -MAX_TEXT) return parseDecimal(text);
  let at = 0;
  let sign = 1;
  const first = text.charCodeAt(0);
  if (first === 45) {
    sign = -1;
    at = 1;
  } else if (first === 43) {
    at = 1;
  }
  // First pass: shape and where the significant digits are.
  let point = -1;
  let digits = 0;
  /** Index of the first and last non-zero digit. */
  let firstNonZero = -1;
  let lastNonZero = -1;
  /** Digits before the point (all of them when there is none), and zero digits before the first non-zero one. */
  let leadingZeros = 0;
  for (let i = at; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (point >= 0) return parseDecimal(text);
      point = i;
      continue;
    }
    if (c < 48 || c > 57) return parseDecimal(text);
    digits++;
    if (c !== 48) {
      if (firstNonZero < 0) firstNonZero = i;
      lastNonZero = i;
    } else if (firstNonZero < 0) {
      leadingZeros++;
    }
  }
  if (digits === 0) return parseDecimal(text);
  const integerDigits = point < 0 ? digits : point - at;
  const x = new Decimal(0) as unknown as DecimalParts;
  x.s = sign;
  if (firstNonZero < 0) return x as unknown as Decimal; // zero: e 0, d [0], the sign kept (as "-0" gives)
  const e = integerDigits - leadingZeros - 1;
  // The first word holds the digits down to a multiple of 7 of the exponent; the rest 7 each, the last padded with zeros.
  const head = (e + 1) % WORD_DIGITS;
  let want = head > 0 ? head : head + WORD_DIGITS;
  let count = 0;
  let word = 0;
  let have = 0;
  for (let i = firstNonZero; i <= lastNonZero; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) continue;
    word = word * 10 + (c - 48);
    if (++have === want) {
      scratch[count++] = word;
      word = 0;
      have = 0;
      want = WORD_DIGITS;
    }
  }
  if (have > 0) scratch[count++] = word * (POWERS[want - have] as number);
  // A packed array of small integers of the exact length (an empty one pushed to reserves room for 17).
  const words = scratch.slice(0, count);
  x.e = e;
  x.d = words;
  return x as unknown as Decimal;
}
