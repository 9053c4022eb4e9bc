import { z } from 'zod';
import type { Decimal } from '../../core/decimal.js';
import { parseDecimal } from '../../core/decimal.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { VenueError } from '../venue-error.js';

/**
 * Building blocks for validating wire JSON into domain values. Live payloads vary between strings
 * and numbers for the same field (API-NOTES §6.5), so each accepts both and yields one type.
 */

const numberOrText = z.union([z.string(), z.number()]);

function toDecimal(value: string | number, ctx: z.RefinementCtx): Decimal {
  const parsed = typeof value === 'number' ? (Number.isFinite(value) ? parseDecimal(String(value)) : undefined) : parseDecimal(value.trim());
  if (parsed === undefined) {
    ctx.addIssue({ code: 'custom', message: `expected a decimal, got ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  return parsed;
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

/** A 64-bit id: kept as its digit string whatever the wire type. */
export const id64 = z.union([z.string().regex(/^-?\d+$/, 'expected an integer id'), z.number().int()]).transform((v) => String(v));

/** A free-form identifier (client order ids, listen keys). Numbers become their text. */
export const text = z.union([z.string(), z.number()]).transform((v) => String(v));

/** Epoch milliseconds, string or number. */
export const epochMs = z.union([z.string().regex(/^\d+$/, 'expected epoch milliseconds'), z.number().int().nonnegative()]).transform(Number);

/** A small integer sent either as a number or as its text ("0"). */
export const intLike = z.union([z.number().int(), z.string().regex(/^-?\d+$/, 'expected an integer').transform(Number)]);

/** A boolean that some payloads send as text. */
export const boolLike = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** The service's code field: 200, "200", 0, "0" and absent all mean success. */
export const codeField = z.union([z.number(), z.string()]).optional();

/** Calls whose `data` is null on success (batch cancels, follower writes). */
export const nullData = z.null();

/** Validates `value` with `schema`; a failure names the endpoint and the first offending field. */
export function parseWire<S extends z.ZodType>(schema: S, value: unknown, endpoint: string): Result<z.output<S>, VenueError> {
  const result = schema.safeParse(value);
  if (result.success) return ok(stripUndefined(result.data) as z.output<S>);
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

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
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
