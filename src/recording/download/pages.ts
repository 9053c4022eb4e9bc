import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { BarEvent, BarSource, MarketEvent } from '../../sim/market-stream/events.js';
import { eventToLineObject } from '../../sim/market-stream/event-lines.js';
import type { MarketApi } from '../../venue/api/market.js';
import type { VenueError } from '../../venue/venue-error.js';
import type { DownloadChannel, DownloadPlan } from './plan.js';

/** The market API calls a download makes (document 001 public market data). */
export type DownloadApi = Pick<MarketApi, 'klines' | 'markPriceKlines' | 'indexKlines' | 'historyFundingRate' | 'trades' | 'exchangeInfo' | 'serverTime'>;

/**
 * Where one symbol's channel stands: kline channels page forward by open time (`next`: the next open
 * time to ask for), funding history backward by id (`next`: the endId to ask with, undefined at first).
 */
export interface Cursor {
  readonly next?: number | string;
  readonly done: boolean;
}

export interface Page {
  /** Lines for the channel's parts file (event lines; funding: settlement rows). */
  readonly lines: readonly string[];
  readonly cursor: Cursor;
}

/** A settled funding row as kept in the parts file until the merge turns the rows into funding events. */
export interface FundingRow {
  readonly id: string;
  readonly settleTime: number;
  readonly rate: string;
  readonly period?: string;
}

/** Per-endpoint page maxima (document 001): klines 1000, mark/index klines 2000, funding history 1000; recent trades 60. */
const MAX_ROWS: Readonly<Record<DownloadChannel, number>> = { contract: 1000, mark: 2000, index: 2000, funding: 1000, trades: 60 };

export function firstCursor(plan: DownloadPlan, channel: DownloadChannel): Cursor {
  return channel === 'funding' || channel === 'trades' ? { done: false } : { next: plan.firstOpen, done: false };
}

/** One request of `channel` for `symbol` from `cursor`: its rows within the plan's range and the cursor after it. */
export async function fetchPage(api: DownloadApi, plan: DownloadPlan, symbol: string, channel: DownloadChannel, cursor: Cursor): Promise<Result<Page, VenueError>> {
  const limit = Math.min(plan.pageSize ?? MAX_ROWS[channel], MAX_ROWS[channel]);
  switch (channel) {
    case 'contract':
    case 'mark':
    case 'index':
      return barPage(api, plan, symbol, channel, Number(cursor.next ?? plan.firstOpen), limit);
    case 'funding':
      return fundingPage(api, plan, symbol, typeof cursor.next === 'string' ? cursor.next : undefined, limit);
    case 'trades': {
      // Only the latest trades exist (no range): those inside the plan's range are kept, usually none.
      const trades = await api.trades({ symbol, limit });
      if (!trades.ok) return trades;
      const end = plan.lastOpen + plan.intervalMs;
      const kept = trades.value.filter((t) => t.time >= plan.firstOpen && t.time < end).sort((a, b) => a.time - b.time);
      const lines = kept.map((t, i) =>
        line({ type: 'trade', ts: t.time, symbol, id: `${t.time}-${i}`, price: t.price.toFixed(), qty: t.qty.toFixed(), buyerIsMaker: t.isBuyerMaker }),
      );
      return ok({ lines, cursor: { done: true } });
    }
  }
}

interface BarRow {
  readonly openTime: number;
  readonly open: { toFixed(): string };
  readonly high: { toFixed(): string };
  readonly low: { toFixed(): string };
  readonly close: { toFixed(): string };
  readonly volume?: { toFixed(): string } | undefined;
}

async function barPage(api: DownloadApi, plan: DownloadPlan, symbol: string, source: BarSource, from: number, limit: number): Promise<Result<Page, VenueError>> {
  const rows = await barRows(api, plan, symbol, source, from, limit);
  if (!rows.ok) return rows;
  const kept = rows.value.filter((r) => r.openTime >= from && r.openTime <= plan.lastOpen && r.openTime % plan.intervalMs === 0).sort((a, b) => a.openTime - b.openTime);
  const lines: string[] = [];
  let last = from - plan.intervalMs;
  for (const row of kept) {
    if (row.openTime <= last) continue;
    last = row.openTime;
    const bar: BarEvent = {
      type: 'bar',
      ts: row.openTime,
      symbol,
      source,
      durationMs: plan.intervalMs,
      open: row.open.toFixed(),
      high: row.high.toFixed(),
      low: row.low.toFixed(),
      close: row.close.toFixed(),
      volume: source === 'contract' ? (row.volume?.toFixed() ?? '0') : '0',
    };
    lines.push(line(bar));
  }
  const next = last + plan.intervalMs;
  // A short page is the end of what the exchange has for the range.
  const done = rows.value.length < limit || kept.length === 0 || next > plan.lastOpen;
  return ok({ lines, cursor: { next, done } });
}

async function barRows(api: DownloadApi, plan: DownloadPlan, symbol: string, source: BarSource, from: number, limit: number): Promise<Result<readonly BarRow[], VenueError>> {
  const { interval, lastOpen } = plan;
  switch (source) {
    case 'contract':
      return api.klines({ symbol, interval, startTime: from, endTime: lastOpen, limit });
    case 'mark': {
      const rows = await api.markPriceKlines({ symbol, interval, from, to: lastOpen, limit });
      return rows.ok ? ok(rows.value.map((r) => ({ ...r, openTime: r.time }))) : rows;
    }
    case 'index':
      return api.indexKlines({ symbol, interval, from, to: lastOpen, limit });
  }
}

async function fundingPage(api: DownloadApi, plan: DownloadPlan, symbol: string, endId: string | undefined, limit: number): Promise<Result<Page, VenueError>> {
  const rows = await api.historyFundingRate({ symbol, limit, ...(endId === undefined ? {} : { endId }) });
  if (!rows.ok) return rows;
  const end = plan.lastOpen + plan.intervalMs;
  const lines: string[] = [];
  let oldest: bigint | undefined;
  let reachedStart = false;
  for (const row of rows.value) {
    const id = BigInt(row.id);
    if (oldest === undefined || id < oldest) oldest = id;
    if (row.settleTime < plan.firstOpen) reachedStart = true;
    if (row.settleTime < plan.firstOpen || row.settleTime > end) continue;
    const kept: FundingRow = { id: row.id, settleTime: row.settleTime, rate: row.settleRate.toFixed(), ...(row.period === undefined ? {} : { period: row.period }) };
    lines.push(JSON.stringify(kept));
  }
  const done = reachedStart || rows.value.length < limit || oldest === undefined || oldest <= 1n;
  return ok({ lines, cursor: oldest === undefined ? { done: true } : { next: String(oldest - 1n), done } });
}

function line(event: MarketEvent): string {
  return JSON.stringify(eventToLineObject(event));
}

/** A failure the download stops on (after retries): its message for the user. */
export function pageFailure(symbol: string, channel: DownloadChannel, error: VenueError): Result<never, string> {
  return err(`${symbol} ${channel}: ${error.message}`);
}
