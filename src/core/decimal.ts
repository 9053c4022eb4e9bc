import { Decimal } from 'decimal.js';

export { Decimal };

/**
 * Builds a Decimal; the one constructor the project uses for money. An integral number held as a
 * double (a difference of millisecond timestamps is one) goes in as the same integer in small-integer
 * form (`| 0`): decimal.js puts a number below 1e7 as it is into its digit array, a double there turns
 * that array literal's elements into doubles for every later decimal of the thread, and all decimal.js
 * code optimized for small-integer digits deoptimizes (in a sweep: at one combination's summary, then
 * the next combinations recompile it). Zero stays as it came (−0 keeps its sign).
 */
export function dec(value: Decimal.Value): Decimal {
  if (typeof value === 'number' && value !== 0 && value === (value | 0)) return new Decimal(value | 0);
  return new Decimal(value);
}

/** Plain decimal text for the wire: never exponent notation ("0.0000001", not "1e-7"). */
export function decText(value: Decimal): string {
  return value.toFixed();
}

/** Parses decimal text strictly: finite, no blanks, no hex; `undefined` when it is not a number. */
export function parseDecimal(text: string): Decimal | undefined {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  const value = new Decimal(text);
  return value.isFinite() ? value : undefined;
}

/** `value > 0`, read from its sign and digits (`gt(0)` makes a decimal of the 0); false for NaN, as `gt`. */
export function aboveZero(value: Decimal): boolean {
  return value.isPositive() && !value.isZero();
}

/**
 * `a.cmp(b)` (−1, 0 or 1) of two decimals, read from their digits: decimal.js copies its argument into
 * a new Decimal on every comparison (`gt`, `lt`, `lte`, … included), which on hot paths (a kline's high
 * and low per trade, risk tiers per order) was a good share of all the decimals made. Same answer as
 * `cmp`; NaN and infinities go to `cmp` itself.
 */
export function compareDecimals(a: Decimal, b: Decimal): number {
  if (!a.isFinite() || !b.isFinite()) return a.cmp(b);
  const ad = a.d;
  const bd = b.d;
  const as = a.s;
  const bs = b.s;
  if (ad[0] === 0 || bd[0] === 0) return ad[0] !== 0 ? as : bd[0] !== 0 ? -bs : 0;
  if (as !== bs) return as;
  if (a.e !== b.e) return (a.e > b.e) !== (as < 0) ? 1 : -1;
  const n = Math.min(ad.length, bd.length);
  for (let i = 0; i < n; i++) {
    const x = ad[i]!;
    const y = bd[i]!;
    if (x !== y) return (x > y) !== (as < 0) ? 1 : -1;
  }
  return ad.length === bd.length ? 0 : (ad.length > bd.length) !== (as < 0) ? 1 : -1;
}
