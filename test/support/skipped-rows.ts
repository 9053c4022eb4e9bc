import type { Result } from '../../src/core/result.js';
import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import type { VenueError } from '../../src/venue/venue-error.js';
import type { SkippedRow, SkippedRows } from '../../src/venue/wire/tolerant-list.js';

/** A skipped row's place in the reply, written as the error paths of parseWire are (`contracts[0].filters[0].tickSize`). */
export function skippedPath(row: SkippedRow): string {
  return `${row.list}[${row.index}]${row.field === '(row)' ? '' : row.field.startsWith('[') ? row.field : `.${row.field}`}`;
}

/** What one call made of its reply: an error (its kind and field), a reply with rows skipped (where), or ok. */
export interface CallOutcome {
  readonly kind: string;
  readonly field: string | undefined;
}

/** Runs `call` and reports its outcome, `skipped` with the first skipped row's path when the reply parsed but left rows out. */
export async function outcomeOf(client: ExchangeClient, call: () => Promise<Result<unknown, VenueError>>): Promise<CallOutcome> {
  const reports: SkippedRows[] = [];
  const subscription = client.rest.skippedRows$.subscribe((s) => reports.push(s));
  try {
    const result = await call();
    if (!result.ok) return { kind: result.error.kind, field: result.error.field };
    const first = reports[0]?.rows[0];
    return first === undefined ? { kind: 'ok', field: undefined } : { kind: 'skipped', field: skippedPath(first) };
  } finally {
    subscription.unsubscribe();
  }
}
