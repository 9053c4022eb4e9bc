import { isSafeNumber, LosslessNumber, parse as parseLossless } from 'lossless-json';
import { Decimal, decText } from '../core/decimal.js';

/**
 * JSON for the catalog API. Prices are JSON numbers on the wire (spec 002), so neither direction may
 * round them through a float where that would change the digits.
 */

/** A request body value. A Decimal is written as a bare JSON number token from its exact text. */
export type CatalogJsonValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | Decimal
  | readonly CatalogJsonValue[]
  | { readonly [key: string]: CatalogJsonValue };

/** Compact JSON, keys in insertion order, undefined members dropped. Throws RangeError on NaN/Infinity. */
export function writeCatalogJson(value: CatalogJsonValue): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Decimal) {
    if (!value.isFinite()) throw new RangeError(`not a finite decimal: ${value.toString()}`);
    return decText(value);
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      break;
  }
  if (isArray(value)) return `[${value.map((v) => writeCatalogJson(v)).join(',')}]`;
  const parts: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v !== undefined) parts.push(`${JSON.stringify(key)}:${writeCatalogJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}

function isArray(value: unknown): value is readonly CatalogJsonValue[] {
  return Array.isArray(value);
}

/**
 * Parses a reply body. Numbers a double holds exactly become `number`; any other number (a price
 * with more digits than a double keeps, a huge integer) stays a LosslessNumber carrying its text, which
 * the price schema turns into an exact Decimal and every other schema rejects. Throws on invalid JSON.
 */
export function parseCatalogJson(text: string): unknown {
  return parseLossless(text, null, (digits: string) => (isSafeNumber(digits) ? Number(digits) : new LosslessNumber(digits)));
}
