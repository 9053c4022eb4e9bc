import { isSafeNumber, LosslessNumber, parse as parseLossless } from 'lossless-json';
import type { Decimal } from '../../core/decimal.js';
import { writeWireJson } from '../json-writer.js';

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

/** Compact JSON, keys in insertion order, undefined members dropped; Decimals as bare numbers. */
export function writeCatalogJson(value: CatalogJsonValue): string {
  return writeWireJson(value, 'number');
}

/**
 * Parses a reply body. Numbers a double holds exactly become `number`; any other number (a price
 * with more digits than a double keeps, a huge integer) stays a LosslessNumber carrying its text, which
 * the price schema turns into an exact Decimal and every other schema rejects. Throws on invalid JSON.
 */
export function parseCatalogJson(text: string): unknown {
  return parseLossless(text, null, (digits: string) => (isSafeNumber(digits) ? Number(digits) : new LosslessNumber(digits)));
}
