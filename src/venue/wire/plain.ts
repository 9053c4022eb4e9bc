import type { Decimal } from '../../core/decimal.js';
import { wireDecimal } from './schema.js';

/**
 * The building blocks of schema.ts (`decimal`, `optDecimal`, `epochMs`, `id64`, `text`, `intLike`,
 * enums) as plain functions, for readers that take a hot reply in one pass without zod (the market
 * poll's book tickers, balances, 24h tickers, v1 order rows). Each applies the same rule to the same
 * wire value and answers the same value, or `BAD` where the schema would refuse it; an optional field
 * answers undefined when absent. A reader that meets `BAD` gives the payload up (undefined) and the
 * caller hands it to the schema, which skips and reports the row and names what is wrong.
 */

/** A value a schema building block refuses. */
export const BAD: unique symbol = Symbol('bad wire value');
export type Bad = typeof BAD;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `decimal`: a string or number, sane magnitude. */
export function plainDecimal(value: unknown): Decimal | Bad {
  if (typeof value !== 'string' && typeof value !== 'number') return BAD;
  return wireDecimal(value) ?? BAD;
}

/**
 * `plainDecimal` for one field of a polled row (a book ticker's bid, …): the same wire value as the last
 * one read here (the same text, or number) answers the same Decimal without parsing it again. Decimals
 * are immutable, so handing one out twice is safe; a value that changed is read as `plainDecimal` reads
 * it. A poll's prices repeat from one reply to the next, and the decimal reader, run once per poll with
 * cold caches, cost ~10 µs there (one-run stamps).
 */
export class RepeatedDecimal {
  private last: unknown = undefined;
  private value: Decimal | Bad = BAD;

  read(wire: unknown): Decimal | Bad {
    if (wire === this.last) return this.value;
    const value = plainDecimal(wire);
    this.last = wire;
    this.value = value;
    return value;
  }
}

/** `optDecimal`: absent, null and "" are undefined; anything else must be a `decimal`. */
export function plainOptDecimal(value: unknown): Decimal | undefined | Bad {
  if (value === undefined || value === null || value === '') return undefined;
  return plainDecimal(value);
}

/** `epochMs`: digits a number holds exactly, or a non-negative safe integer. */
export function plainEpochMs(value: unknown): number | Bad {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : BAD;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return BAD;
  const ms = Number(value);
  return Number.isSafeInteger(ms) ? ms : BAD;
}

/** `id64`: at most 20 digits (an optional minus) kept as text, or a safe integer as its text. */
export function plainId64(value: unknown): string | Bad {
  if (typeof value === 'string') return /^-?\d{1,20}$/.test(value) ? value : BAD;
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : BAD;
}

/** `z.string()`. */
export function plainString(value: unknown): string | Bad {
  return typeof value === 'string' ? value : BAD;
}

/** `text`: a string, or a (finite) number as its text. */
export function plainText(value: unknown): string | Bad {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : BAD;
}

/** `intLike`: a safe integer, or its text. */
export function plainIntLike(value: unknown): number | Bad {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : BAD;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) return BAD;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : BAD;
}

/** `x.optional()` of a building block: absent is undefined, anything else is read by `read`. */
export function plainOptional<T>(value: unknown, read: (value: unknown) => T | Bad): T | undefined | Bad {
  return value === undefined ? undefined : read(value);
}

/** `z.enum(options)`: one of the options, exactly. */
export function plainEnum<const T extends string>(options: readonly T[]): (value: unknown) => T | Bad {
  const allowed = new Set<unknown>(options);
  return (value) => (allowed.has(value) ? (value as T) : BAD);
}

/**
 * Every row of a list payload read by `row`, or undefined at the first row it refuses (or a payload
 * that is no list): the caller's schema then reads the payload. `bareRow`: a lone object is a list of
 * one (the routes that answer a bare row when asked for one symbol).
 */
export function plainRows<T>(payload: unknown, row: (record: Record<string, unknown>) => T | Bad, bareRow: boolean): T[] | undefined {
  const rows = Array.isArray(payload) ? (payload as unknown[]) : bareRow && isRecord(payload) ? [payload] : undefined;
  if (rows === undefined) return undefined;
  const out: T[] = [];
  for (const raw of rows) {
    if (!isRecord(raw)) return undefined;
    const read = row(raw);
    if (read === BAD) return undefined;
    out.push(read);
  }
  return out;
}
