// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const { isSafeInteger } = Number;
const { abs, round } = Math;
const stringOf = String;

/**
 * The one place decimal text becomes integer ticks/lots and back. A `StepGrid` is the set of multiples
 * of a decimal step (a tick size, a quantity step, a rate resolution); `toUnits('111021.4')` on the
 * grid of '0.1' is 1110214. Conversion is exact digit arithmetic on the text: no float ever touches
 * the value, so a round trip gives back the same number. Units stay exact up to 2^53.
 */
export class StepGrid {
  /** Canonical text of the step. */
  readonly step: string;
  /** Digits after the point in the step. */
  readonly decimals: number;
  /** The step as a float, for models that turn a float price into ticks; never for money. */
  readonly approx: number;
  /** The step times 10^decimals: an integer. */
  private readonly scaledStep: number;

  constructor(step: string) {
    const scaled = parseScaled(step, decimalsOf(step));
    if (scaled === undefined || scaled <= 0) throw new RangeError(`not a positive decimal step: ${JSON.stringify(step)}`);
    this.decimals = decimalsOf(step);
    this.scaledStep = scaled;
    this.step = formatScaled(scaled, this.decimals);
    this.approx = Number(this.step);
  }

  /** Integer multiples of the step in `text`; undefined when not plain decimal text, off the grid or beyond 2^53. */
  tryUnits(text: string): number | undefined {
    const scaled = parseScaled(text, this.decimals);
    if (scaled === undefined || scaled % this.scaledStep !== 0) return undefined;
    return scaled / this.scaledStep;
  }

  /** Integer multiples of the step in `scaled` counts of 10^−decimals (`scaledOf`'s inverse); undefined when off the grid. */
  unitsOfScaled(scaled: number): number | undefined {
    return scaled % this.scaledStep === 0 ? scaled / this.scaledStep : undefined;
  }

  /** Like `tryUnits`, but throws a RangeError naming the value and the step. */
  toUnits(text: string): number {
    const units = this.tryUnits(text);
    if (units === undefined) throw new RangeError(`${JSON.stringify(text)} is not a multiple of ${this.step}`);
    return units;
  }

  /** Canonical decimal text of `units` steps: no exponent, no trailing zeros ('111021.4', '15224', '-0.0001'). */
  toText(units: number): string {
    const scaled = units * this.scaledStep;
    if (!isSafeInteger(scaled)) throw new RangeError(`${units} units of ${this.step} is not exact`);
    return formatScaled(scaled, this.decimals);
  }

  /** `units` steps as an integer count of 10^−decimals (the value's digits); undefined beyond 2^53. */
  scaledOf(units: number): number | undefined {
    const scaled = units * this.scaledStep;
    return isSafeInteger(scaled) ? scaled : undefined;
  }

  /** The nearest grid point to a float (model values such as a simulated mid price). */
  nearestUnits(value: number): number {
    return round(value / this.approx);
  }
}

/** Plain decimal text as an integer and its power of ten (`'0.25'` → 25 at 2); undefined when not plain text or beyond 2^53. */
export function scaledText(text: string): { readonly units: number; readonly decimals: number } | undefined {
  const decimals = decimalsOf(text);
  const units = parseScaled(text, decimals);
  return units === undefined ? undefined : { units, decimals };
}

/**
 * The order of two unsigned decimal texts (digits[.digits], as a recording holds them: leading and
 * trailing zeros allowed), −1, 0 or 1, read from their digits: no parse, exact at any length.
 */
export function compareDecimalText(a: string, b: string): number {
  if (a === b) return 0;
  // Digits in the same places (same length, the point at the same index): their text order is their value's.
  if (a.length === b.length && a.indexOf('.') === b.indexOf('.')) return a < b ? -1 : 1;
  let ai = 0;
  let bi = 0;
  while (ai < a.length - 1 && a.charCodeAt(ai) === 48 && a.charCodeAt(ai + 1) !== 46) ai++;
  while (bi < b.length - 1 && b.charCodeAt(bi) === 48 && b.charCodeAt(bi + 1) !== 46) bi++;
  const aDot = a.indexOf('.', ai);
  const bDot = b.indexOf('.', bi);
  const aInt = (aDot < 0 ? a.length : aDot) - ai;
  const bInt = (bDot < 0 ? b.length : bDot) - bi;
  if (aInt !== bInt) return aInt > bInt ? 1 : -1;
  // Same number of integer digits: digit by digit, the point skipped, a missing fraction digit a zero.
  const aEnd = a.length;
  const bEnd = b.length;
  for (;;) {
    if (ai === aDot) ai++;
    if (bi === bDot) bi++;
    if (ai >= aEnd && bi >= bEnd) return 0;
    const x = ai < aEnd ? a.charCodeAt(ai) : 48;
    const y = bi < bEnd ? b.charCodeAt(bi) : 48;
    if (x !== y) return x > y ? 1 : -1;
    ai++;
    bi++;
  }
}

function decimalsOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * `text` times 10^decimals as an integer, or undefined: text must be [-]digits[.digits]; digits beyond
 * `decimals` must be zeros (otherwise the value is between grid points).
 */
function parseScaled(text: string, decimals: number): number | undefined {
  const length = text.length;
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  const negative = i === 1;
  let value = 0;
  let intDigits = 0;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) break;
    if (c < 48 || c > 57) return undefined;
    value = value * 10 + (c - 48);
    intDigits++;
  }
  let fracDigits = 0;
  if (i < length) {
    i++; // the point
    if (i === length) return undefined;
    for (; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) return undefined;
      if (fracDigits < decimals) value = value * 10 + (c - 48);
      else if (c !== 48) return undefined;
      fracDigits++;
    }
  }
  if (intDigits === 0) return undefined;
  for (; fracDigits < decimals; fracDigits++) value *= 10;
  if (!isSafeInteger(value)) return undefined;
  return negative ? -value : value;
}

function formatScaled(scaled: number, decimals: number): string {
  const sign = scaled < 0 ? '-' : '';
  const digits = stringOf(abs(scaled));
  if (decimals === 0) return sign + digits;
  const padded = digits.length <= decimals ? '0'.repeat(decimals - digits.length + 1) + digits : digits;
  const cut = padded.length - decimals;
  let end = padded.length;
  while (end > cut && padded.charCodeAt(end - 1) === 48) end--;
  return sign + (end === cut ? padded.slice(0, cut) : `${padded.slice(0, cut)}.${padded.slice(cut, end)}`);
}
