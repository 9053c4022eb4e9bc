import { Decimal } from 'decimal.js';

export { Decimal };

/** Builds a Decimal; the one constructor the project uses for money. */
export function dec(value: Decimal.Value): Decimal {
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
