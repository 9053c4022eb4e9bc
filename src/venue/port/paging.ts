import type { Result } from '../../core/result.js';
import { ok } from '../../core/result.js';
import type { VenueError } from '../venue-error.js';

/** Upper bound on pages of one listing: a server that never stops paging is not followed forever. */
const MAX_PAGES = 1000;

function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

/**
 * Every row of an open-order listing that pages newest first with an `orderId` cursor answering only
 * lower ids (v2 open-orders, open-algo-orders). Stops at a short page or when the cursor stops moving.
 */
export async function allOrderPages<R extends { readonly orderId: string }>(
  pageSize: number,
  fetchPage: (cursor: string | undefined) => Promise<Result<R[], VenueError>>,
): Promise<Result<R[], VenueError>> {
  const rows = new Map<string, R>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const reply = await fetchPage(cursor);
    if (!reply.ok) return reply;
    for (const row of reply.value) if (!rows.has(row.orderId)) rows.set(row.orderId, row);
    if (reply.value.length < pageSize) break;
    const lowest = lowestOrderId(reply.value) ?? '0';
    if (cursor !== undefined && compareIds(lowest, cursor) >= 0) break;
    cursor = lowest;
  }
  return ok([...rows.values()]);
}

/** The lowest exchange id of a page (the cursor of the page below it); undefined for an empty page. */
export function lowestOrderId(rows: ReadonlyArray<{ readonly orderId: string }>): string | undefined {
  const [first] = rows;
  if (first === undefined) return undefined;
  return rows.reduce((low, row) => (compareIds(row.orderId, low) < 0 ? row.orderId : low), first.orderId);
}

export interface TradeCursor {
  readonly fromId?: string;
  readonly toId?: string;
}

/**
 * Every user trade a listing holds, whichever order the server pages in: the spec does not say, and
 * the simulator answers the newest `limit` rows first, so paging by `fromId` alone would skip the
 * middle. A full page that runs newest-first continues below its lowest id (`toId`); one that runs
 * oldest-first continues above its highest id (`fromId`). Answers oldest first (time, then id).
 */
export async function allTradePages<R extends { readonly id: string; readonly time: number }>(
  pageSize: number,
  fetchPage: (cursor: TradeCursor) => Promise<Result<R[], VenueError>>,
): Promise<Result<R[], VenueError>> {
  const rows = new Map<string, R>();
  let cursor: TradeCursor = {};
  for (let page = 0; page < MAX_PAGES; page++) {
    const reply = await fetchPage(cursor);
    if (!reply.ok) return reply;
    const fresh = reply.value.filter((row) => !rows.has(row.id));
    for (const row of fresh) rows.set(row.id, row);
    const first = reply.value[0];
    const last = reply.value[reply.value.length - 1];
    if (reply.value.length < pageSize || fresh.length === 0 || first === undefined || last === undefined) break;
    const ids = reply.value.map((r) => BigInt(r.id));
    const lowest = ids.reduce((a, b) => (b < a ? b : a));
    const highest = ids.reduce((a, b) => (b > a ? b : a));
    const newestFirst = compareIds(first.id, last.id) > 0;
    if (newestFirst) {
      if (lowest <= 0n) break;
      cursor = { toId: String(lowest - 1n) };
    } else {
      cursor = { fromId: String(highest + 1n) };
    }
  }
  return ok([...rows.values()].sort((a, b) => (a.time === b.time ? compareIds(a.id, b.id) : a.time - b.time)));
}
