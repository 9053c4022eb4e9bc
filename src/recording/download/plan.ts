import { EPOCH_ALIGNED_INTERVAL_MS } from '../../protocol/kline-intervals.js';
import type { KlineInterval } from '../../protocol/kline-intervals.js';

/** The units of work per symbol, each paged and checkpointed on its own. */
export type DownloadChannel = 'contract' | 'mark' | 'index' | 'funding' | 'trades';

/** Fixed order: parts files, progress and the merge's tie-break all follow it. */
export const DOWNLOAD_CHANNELS: readonly DownloadChannel[] = ['contract', 'mark', 'index', 'funding', 'trades'];

/** Kline intervals a download accepts: the fixed-length ones a backtest builds klines from (not 1w, 1M). */
export const DOWNLOAD_INTERVAL_MS = EPOCH_ALIGNED_INTERVAL_MS;

/** What the user asked for; a rerun must ask the same to resume. */
export interface DownloadRequest {
  readonly symbols: readonly string[];
  /** Epoch ms; bars opening at or after it. */
  readonly from: number;
  /** Epoch ms; bars ending at or before it (clamped to the exchange's time). */
  readonly to: number;
  readonly interval: KlineInterval;
  readonly channels: readonly DownloadChannel[];
  /** Rows asked per request (capped at each endpoint's maximum); default the maximum. */
  readonly pageSize?: number;
}

/** The request with its bar grid resolved (stored in the parts directory, so a resumed download uses the same). */
export interface DownloadPlan extends DownloadRequest {
  readonly intervalMs: number;
  /** Open time of the first and of the last whole bar in the range. */
  readonly firstOpen: number;
  readonly lastOpen: number;
}

/** The plan for `request` given the exchange's time, or why there is none (a user mistake). */
export function planDownload(request: DownloadRequest, serverNow: number): DownloadPlan | string {
  const intervalMs = DOWNLOAD_INTERVAL_MS[request.interval];
  if (intervalMs === undefined) return `--interval ${request.interval}: one of ${Object.keys(DOWNLOAD_INTERVAL_MS).join(', ')}`;
  if (request.symbols.length === 0) return '--symbols: at least one symbol';
  if (new Set(request.symbols).size !== request.symbols.length) return '--symbols: a symbol is named twice';
  if (request.channels.length === 0) return 'nothing to download: every channel is turned off';
  if (!(request.to > request.from)) return `--to ${new Date(request.to).toISOString()} is not after --from ${new Date(request.from).toISOString()}`;
  if (request.pageSize !== undefined && !(Number.isSafeInteger(request.pageSize) && request.pageSize >= 1 && request.pageSize <= 2000)) return '--page-size: 1 to 2000';
  const firstOpen = Math.ceil(request.from / intervalMs) * intervalMs;
  const end = Math.min(request.to, serverNow);
  const lastOpen = Math.floor(end / intervalMs) * intervalMs - intervalMs;
  if (lastOpen < firstOpen) {
    return `the range ${new Date(request.from).toISOString()} → ${new Date(end).toISOString()} holds no whole ${request.interval} bar${end < request.to ? ' (the exchange\'s time ends it)' : ''}`;
  }
  return { ...request, intervalMs, firstOpen, lastOpen };
}

/** True when a stored plan came from the same request (a rerun of the same command). */
export function sameRequest(plan: DownloadRequest, request: DownloadRequest): boolean {
  return (
    plan.from === request.from &&
    plan.to === request.to &&
    plan.interval === request.interval &&
    plan.pageSize === request.pageSize &&
    plan.symbols.join(',') === request.symbols.join(',') &&
    plan.channels.join(',') === request.channels.join(',')
  );
}
