import { z } from 'zod';
import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { VenueError } from '../venue-error.js';
import { decimalOfText } from './decimal-text.js';
import type { SkippedRowsSink } from './tolerant-list.js';
import { takeSkippedRows } from './tolerant-list.js';

/**
 * Building blocks for validating wire JSON into domain values. Live payloads vary between strings
 * and numbers for the same field (API-NOTES §6.5), so each accepts both and yields one type.
 */

const numberOrText = z.union([z.string(), z.number()]);

/**
 * No amount on the wire is this large, or this small unless zero, nor written with this many characters:
 * such a value is garbage (and 1e-9000000000000000 printed in full would take petabytes).
 */
const MAX_MAGNITUDE = dec('1e30');
const MIN_MAGNITUDE = dec('1e-30');
const MAX_DECIMAL_TEXT = 100;

function saneMagnitude(value: Decimal): boolean {
  // A finite non-zero decimal's exponent `e` puts it in [10^e, 10^(e+1)): from 1e-29 to just under 1e30
  // it is sane without building two absolute values (every amount of every reply passes here).
  if (value.e > -30 && value.e < 30) return true;
  return value.isZero() || (value.abs().lte(MAX_MAGNITUDE) && value.abs().gte(MIN_MAGNITUDE));
}

/** A wire amount as `decimal` reads it (string or number, sane magnitude), or undefined when it is none. */
export function wireDecimal(value: string | number): Decimal | undefined {
  const parsed =
    typeof value === 'number' ? (Number.isFinite(value) ? decimalOfText(String(value)) : undefined) : value.length > MAX_DECIMAL_TEXT ? undefined : decimalOfText(value.trim());
  return parsed !== undefined && saneMagnitude(parsed) ? parsed : undefined;
}

function toDecimal(value: string | number, ctx: z.RefinementCtx): Decimal {
  const parsed = wireDecimal(value);
  if (parsed === undefined) {
    ctx.addIssue({ code: 'custom', message: `expected a decimal, got ${preview(value)}` });
    return z.NEVER;
  }
  return parsed;
}

/** The offending value as it appears in an error message: short, however large the reply. */
function preview(value: string | number): string {
  if (typeof value === 'number') return String(value);
  if (value.length <= 40) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, 40))}… (${value.length} characters)`;
}

/** A required decimal amount (price, quantity, balance). */
export const decimal = numberOrText.transform(toDecimal);

/** An optional decimal where the service writes "" for "not set": "" and null become absent. */
export const optDecimal = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((value, ctx): Decimal | undefined => (value === undefined || value === null || value === '' ? undefined : toDecimal(value, ctx)));

/** Text where the service writes "" for "not set": "" and null become absent. */
export const optText = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v): string | undefined => (v === undefined || v === null || v === '' ? undefined : v));

/** A 64-bit id: kept as its digit string whatever the wire type (at most 20 digits: 2^64 has 20). */
export const id64 = z.union([z.string().regex(/^-?\d{1,20}$/, 'expected an integer id'), z.number().int()]).transform((v) => String(v));

/** A free-form identifier (client order ids, listen keys). Numbers become their text. */
export const text = z.union([z.string(), z.number()]).transform((v) => String(v));

/** Integer text a number holds exactly: longer digit runs would round, or become Infinity. */
const safeDigits = (digits: string): boolean => Number.isSafeInteger(Number(digits));

/** Epoch milliseconds, string or number. */
export const epochMs = z
  .union([z.string().regex(/^\d+$/, 'expected epoch milliseconds').refine(safeDigits, 'expected epoch milliseconds'), z.number().int().nonnegative()])
  .transform(Number);

/** A small integer sent either as a number or as its text ("0"). */
export const intLike = z.union([z.number().int(), z.string().regex(/^-?\d+$/, 'expected an integer').refine(safeDigits, 'expected an integer').transform(Number)]);

/** A boolean that some payloads send as text. */
export const boolLike = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** The service's code field: 200, "200", 0, "0" and absent all mean success. */
export const codeField = z.union([z.number(), z.string()]).optional();

/** Calls whose `data` is null on success (batch cancels, follower writes). */
export const nullData = z.null();

/**
 * Validates `value` with `schema`; a failure names the endpoint and the first offending field. Rows that
 * tolerant lists of the schema left out go to `onSkipped` (one call for the reply), if given.
 */
export function parseWire<S extends z.ZodType>(schema: S, value: unknown, endpoint: string, onSkipped?: SkippedRowsSink): Result<z.output<S>, VenueError> {
  const result = schema.safeParse(value);
  if (result.success) {
    const rows = takeSkippedRows(result.data);
    if (rows.length > 0) onSkipped?.({ endpoint, rows });
    return ok(stripUndefined(result.data) as z.output<S>);
  }
  const issue = result.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? '(root)' : formatPath(issue.path);
  return err(
    new VenueError({
      kind: 'malformed-response',
      endpoint,
      field,
      message: `unexpected response: ${issue?.message ?? 'invalid'}`,
    }),
  );
}

/** The path of an issue; a key of the reply's own making (a record key) is cut at 40 characters. */
function formatPath(path: ReadonlyArray<PropertyKey>): string {
  const keyText = (p: PropertyKey): string => (String(p).length <= 40 ? String(p) : `${String(p).slice(0, 40)}…`);
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${keyText(p)}`)).join('');
}

/** Optional fields stay absent: removes keys whose value is undefined, in plain objects and arrays. */
function stripUndefined(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) stripUndefined(item);
    return value;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (record[key] === undefined) delete record[key];
      else stripUndefined(record[key]);
    }
  }
  return value;
}

/** A row's coin, sent as `coin` (2026 docs) or under an older key (`asset`, `coinId`): the row is refused without either. */
export function coinName(coin: string | undefined, other: string | undefined, otherKey: string, ctx: z.RefinementCtx): string {
  const name = coin ?? other;
  if (name !== undefined) return name;
  ctx.addIssue({ code: 'custom', path: ['coin'], message: `expected coin (or ${otherKey})` });
  return z.NEVER;
}
