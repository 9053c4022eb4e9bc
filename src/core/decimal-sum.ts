import { Decimal, compareDecimals, dec } from './decimal.js';
import { ESTIMATE_MARGIN, approximately } from './decimal-estimate.js';
import { timesExact } from './exact-decimal.js';
import { MAX_EXACT_SCALE, decimalOfScaled, powerOfTen, scaledInteger } from './scaled-integer.js';

const ZERO = dec(0);
const { isSafeInteger } = Number;
/** Past this many terms the estimate's error bound (each decimal.js step rounds at 1e-19) is not taken for granted. */
const MAX_ESTIMATED_TERMS = 100_000;

interface Term {
  readonly x: Decimal | DecimalSum;
  readonly negated: boolean;
}

/**
 * `0 + t1 ± t2 ± …` in its terms' order, as decimal.js's adds and subtractions give it, made as a decimal
 * only when read. While every term has at most 15 places and every partial result fits a safe integer at
 * the terms' largest number of places, the sum is that integer: each partial then has at most 16 digits,
 * which decimal.js's 20-digit steps give exactly, so the integer is their value. A term that is itself a
 * sum is one step (its value, not its terms), as when its decimal is added. Otherwise the decimal steps
 * are made, once, when read: from the integer's value of the terms before the first one it could not
 * take (the same value those steps give), then each term from that one on, the only terms kept.
 */
export class DecimalSum {
  /** Terms the integer took (their steps are its value). */
  private exactTerms = 0;
  /** The terms from the first one the integer could not take; undefined while it took them all. */
  private rest: Term[] | undefined;
  /**
   * Starts as a double (-0) so its field is a double from the first sum: the integer outgrows a small
   * integer in a backtest's first run, and that change of field representation deoptimized the readers
   * (`PositionBook.apply`) in the next. The sign never shows: `=== 0` and the double estimate's
   * comparisons treat -0 as 0, and adding a term to -0 gives the term.
   */
  private units = -0;
  private scale = 0;
  private exact = true;
  private value: Decimal | undefined;
  /** Σ|term| of the last `approximate` (the scale of its error). */
  private magnitude = 0;

  add(x: Decimal | DecimalSum): this {
    return this.push(x, false);
  }

  sub(x: Decimal | DecimalSum): this {
    return this.push(x, true);
  }

  /**
   * `add(a.mul(b).mul(c))`. While the sum is an integer and the product's digits are a safe integer at
   * the factors' places together (at most 15), the product is that integer, exact (at most 16 digits, as
   * decimal.js's steps give it), added to the sum with no decimal made for it or for its factor `a × b`.
   */
  addProduct(a: Decimal, b: Decimal, c: Decimal): this {
    if (this.exact && this.addProductUnits(a, b, c)) {
      this.value = undefined;
      this.exactTerms++;
      return this;
    }
    return this.add(timesExact(timesExact(a, b), c));
  }

  /** The sum as a decimal (the unsigned zero when it is zero, as decimal.js's steps from zero give). */
  get decimal(): Decimal {
    return (this.value ??= this.exact ? (this.units === 0 ? ZERO : decimalOfScaled(this.units, this.scale)) : this.stepped());
  }

  /**
   * The sign of `decimal − x` (as `compareDecimals` gives it), with no decimal steps made where a double
   * estimate is clearly on one side: each term's double is within 1e-13 of it and each decimal.js step
   * rounds at 1e-19 of a partial sum (at most Σ|term|), so outside 1e-9 of Σ|term| + |x| the answers
   * cannot differ. Near the edge, or for values a double does not hold, the decimal answers.
   */
  compareTo(x: Decimal): number {
    if (this.value === undefined && !this.exact && this.termCount() < MAX_ESTIMATED_TERMS) {
      const estimate = this.approximate();
      const other = approximately(x);
      const margin = ESTIMATE_MARGIN * (this.magnitude + Math.abs(other));
      // NaN (a term or x out of a double's range) fails both tests.
      if (estimate - other > margin) return 1;
      if (estimate - other < -margin) return -1;
    }
    return compareDecimals(this.decimal, x);
  }

  private termCount(): number {
    return this.exactTerms + (this.rest?.length ?? 0);
  }

  /** The sum as a double, Σ|term| left in `magnitude`; NaN when a term does not fit a double. */
  private approximate(): number {
    if (this.value !== undefined) {
      const value = approximately(this.value);
      this.magnitude = Math.abs(value);
      return value;
    }
    let sum = this.units / powerOfTen(this.scale);
    let magnitude = Math.abs(sum);
    for (const { x, negated } of this.rest ?? []) {
      let term: number;
      if (x instanceof DecimalSum) {
        term = x.approximate();
        magnitude += x.magnitude;
      } else {
        term = approximately(x);
        magnitude += Math.abs(term);
      }
      sum = negated ? sum - term : sum + term;
    }
    this.magnitude = magnitude;
    return sum;
  }

  private push(x: Decimal | DecimalSum, negated: boolean): this {
    this.value = undefined;
    if (this.exact) {
      if (this.addUnits(x, negated)) {
        this.exactTerms++;
        return this;
      }
      this.exact = false;
    }
    (this.rest ??= []).push({ x, negated });
    return this;
  }

  private addUnits(x: Decimal | DecimalSum, negated: boolean): boolean {
    if (x instanceof DecimalSum && !x.exact) return this.addUnits(x.decimal, negated);
    const places = x instanceof DecimalSum ? x.scale : x.decimalPlaces();
    if (!(places <= MAX_EXACT_SCALE)) return false;
    if (places > this.scale) {
      const rescaled = this.units * powerOfTen(places - this.scale);
      if (!isSafeInteger(rescaled)) return false;
      this.units = rescaled;
      this.scale = places;
    }
    const units = x instanceof DecimalSum ? x.units * powerOfTen(this.scale - places) : scaledInteger(x, this.scale);
    if (units === undefined || !isSafeInteger(units)) return false;
    const next = negated ? this.units - units : this.units + units;
    if (!isSafeInteger(next)) return false;
    this.units = next;
    return true;
  }

  /** Adds `a × b × c` to the integer when the product and the sum stay exact there; false (nothing changed) otherwise. */
  private addProductUnits(a: Decimal, b: Decimal, c: Decimal): boolean {
    const aPlaces = a.decimalPlaces();
    const bPlaces = b.decimalPlaces();
    const cPlaces = c.decimalPlaces();
    const places = aPlaces + bPlaces + cPlaces;
    if (!(places <= MAX_EXACT_SCALE)) return false;
    const aUnits = scaledInteger(a, aPlaces);
    const bUnits = scaledInteger(b, bPlaces);
    const cUnits = scaledInteger(c, cPlaces);
    if (aUnits === undefined || bUnits === undefined || cUnits === undefined) return false;
    const product = aUnits * bUnits * cUnits;
    // A zero product (a zero factor) keeps decimal.js's sign rules: left to its own steps.
    if (product === 0 || !isSafeInteger(product)) return false;
    const scale = places > this.scale ? places : this.scale;
    const sum = this.units * powerOfTen(scale - this.scale);
    const units = product * powerOfTen(scale - places);
    const next = sum + units;
    if (!isSafeInteger(sum) || !isSafeInteger(units) || !isSafeInteger(next)) return false;
    this.units = next;
    this.scale = scale;
    return true;
  }

  /**
   * decimal.js's steps: `0 + t1` is t1 itself within the precision (a zero unsigned), then each term
   * added or subtracted; the terms the integer took give its value (each of their steps was exact).
   */
  private stepped(): Decimal {
    let sum: Decimal | undefined = this.exactTerms === 0 ? undefined : this.units === 0 ? ZERO : decimalOfScaled(this.units, this.scale);
    for (const { x, negated } of this.rest ?? []) {
      const term = x instanceof DecimalSum ? x.decimal : x;
      if (sum !== undefined) sum = negated ? sum.sub(term) : sum.add(term);
      else sum = negated ? ZERO.sub(term) : term.isZero() ? ZERO : term.sd() <= Decimal.precision ? term : ZERO.add(term);
    }
    return sum ?? ZERO;
  }
}
