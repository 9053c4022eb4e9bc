import { z } from 'zod';

/**
 * The list half of the parsing rule (README "The exchange client"): a row of a list reply that lacks
 * what stratd needs is skipped and counted, never fails the reply. The list itself must still be a
 * list: a reply of another top-level type remains an error.
 */

/** One row a list reply carried but stratd could not read. */
export interface SkippedRow {
  /** Where the list sits in the reply (`contracts`, `list`, `` for a top-level list). */
  readonly list: string;
  /** Index of the row in the wire list. */
  readonly index: number;
  /** What the row is about: its symbol or id when it has one, else `[index]`. */
  readonly row: string;
  /** The first field at fault, inside the row (`filters[0].tickSize`, `(row)`). */
  readonly field: string;
  readonly message: string;
}

/** The rows skipped in one reply of one endpoint. */
export interface SkippedRows {
  readonly endpoint: string;
  readonly rows: readonly SkippedRow[];
}

/** Receives the rows a parse skipped; called once per reply that skipped any. */
export type SkippedRowsSink = (skipped: SkippedRows) => void;

/** Rows a tolerant list left out, kept beside the list they came from until the parse is over. */
const skippedOfList = new WeakMap<readonly unknown[], Omit<SkippedRow, 'list'>[]>();
/** Lists recorded and not yet taken: while 0 (nearly always) a parse's value is not walked. */
let untaken = 0;

/** Keys whose value names a row in a warning, in order of preference. */
const ROW_KEYS = ['symbol', 's', 'symbolId', 'orderId', 'clientOrderId', 'id', 'coin', 'asset', 'a', 'coinId', 'leaderUserId', 'riskLimitId', 'chainType', 'e'];

/** The row's symbol or id (whichever it carries first), else `[index]`. */
export function describeRow(raw: unknown, index: number): string {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const record = raw as Record<string, unknown>;
    for (const key of ROW_KEYS) {
      const value = Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
      if ((typeof value === 'string' && value !== '') || typeof value === 'number') return `${key}=${String(value).slice(0, 60)}`;
    }
  }
  return `[${index}]`;
}

/** A list whose rows are each read with `row`; a row that fails is left out and recorded (see `takeSkippedRows`). */
export function tolerantList<S extends z.ZodType>(row: S, describe: (raw: unknown, index: number) => string = describeRow) {
  return z.array(z.unknown()).transform((items): z.output<S>[] => {
    const out: z.output<S>[] = [];
    const skipped: Omit<SkippedRow, 'list'>[] = [];
    for (const [index, item] of items.entries()) {
      const parsed = row.safeParse(item);
      if (parsed.success) {
        out.push(parsed.data);
        continue;
      }
      const issue = parsed.error.issues[0];
      skipped.push({
        index,
        row: describe(item, index),
        field: issue === undefined || issue.path.length === 0 ? '(row)' : formatPath(issue.path),
        message: issue?.message ?? 'invalid',
      });
    }
    if (skipped.length > 0) {
      skippedOfList.set(out, skipped);
      untaken++;
    }
    return out;
  });
}

/**
 * The rows skipped anywhere in a parsed value (a tolerant list at any depth of plain objects and
 * arrays), with where each list sits. Each list's record is consumed: a second call finds nothing.
 */
export function takeSkippedRows(value: unknown): SkippedRow[] {
  const found: SkippedRow[] = [];
  if (untaken === 0) return found;
  collect(value, '', found, 0);
  return found;
}

/** Parsed replies are shallow (exchangeInfo is the deepest at 3 levels); this bounds a pathological one. */
const MAX_DEPTH = 16;

function collect(value: unknown, path: string, found: SkippedRow[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    const skipped = skippedOfList.get(value);
    if (skipped !== undefined) {
      skippedOfList.delete(value);
      untaken = Math.max(0, untaken - 1);
      for (const s of skipped) found.push({ list: path, ...s });
    }
    value.forEach((item: unknown, i) => collect(item, `${path}[${i}]`, found, depth + 1));
    return;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) collect(item, path === '' ? key : `${path}.${key}`, found, depth + 1);
  }
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p).slice(0, 40)}`)).join('');
}
