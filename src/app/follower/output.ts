import { Decimal, decText } from '../../core/decimal.js';

/** Plain JSON values: decimals as their exact text (never exponent notation), key order kept. */
export function plainJson(value: unknown): unknown {
  if (Decimal.isDecimal(value)) return decText(value);
  if (Array.isArray(value)) return value.map(plainJson);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainJson(v)]));
  return value;
}

/** One JSON line. */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(plainJson(value))}\n`;
}
