import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { silentLogger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { existsSync } from 'node:fs';
import type { SimInstrument } from '../../sim/market-stream/instruments.js';
import { toInstrument } from '../../venue/port/instrument-mapping.js';
import type { VenueError } from '../../venue/venue-error.js';
import { headerInstrument } from '../recorder/instruments.js';
import { loadInstrumentHints } from '../recorder/venue-hints.js';
import { mergeParts } from './merge.js';
import type { DownloadApi, Page } from './pages.js';
import { fetchPage, firstCursor } from './pages.js';
import { DownloadParts } from './parts.js';
import type { ChannelProgress } from './parts.js';
import type { DownloadChannel, DownloadPlan, DownloadRequest } from './plan.js';
import { planDownload, sameRequest } from './plan.js';

export interface DownloadOptions {
  readonly api: DownloadApi;
  readonly request: DownloadRequest;
  /** The recording to write; the work in progress lives in `${out}.part/`. */
  readonly out: string;
  /** Overwrite an existing `out` (a parts directory is always resumed, never overwritten). */
  readonly force?: boolean;
  /** Waits between retries of a failed request. */
  readonly time: TimeSource;
  /** Aborting stops the download between two requests; the parts directory stays for a rerun. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: DownloadProgress) => void;
  readonly logger?: Logger;
  /** Tries of one request before the download stops (default 5). */
  readonly attempts?: number;
}

export interface DownloadProgress {
  /** Bars (and one unit per funding history and recent-trades channel) fetched so far, of `total`. */
  readonly done: number;
  readonly total: number;
  /** Rows written to the parts so far. */
  readonly rows: number;
  readonly symbol: string;
  readonly channel: DownloadChannel;
  /** Some of the work was done by an earlier, interrupted run. */
  readonly resumed: boolean;
}

export type DownloadOutcome =
  | { readonly kind: 'written'; readonly out: string; readonly events: number; readonly plan: DownloadPlan }
  | { readonly kind: 'interrupted'; readonly parts: string };

export type DownloadFailureCode = 'BAD_REQUEST' | 'EXISTS' | 'OTHER_DOWNLOAD' | 'UNKNOWN_SYMBOL' | 'VENUE';

/** Why a download stopped: `userMistake` ones are the command line's fault (exit 2), the rest the exchange's (exit 1; rerun to resume). */
export interface DownloadFailure {
  readonly code: DownloadFailureCode;
  readonly message: string;
  readonly userMistake: boolean;
}

const MAX_WAIT_MS = 30_000;

/**
 * `stratd download`: a past range of the exchange's public market data (klines of the contract, mark
 * and index price, settled funding, recent trades) paged through the client (and so its rate governor)
 * into a parts directory with a checkpoint per symbol and channel, then merged into one market-stream
 * recording whose header marks the bar-level channels. Interrupted (abort, kill, a failure), the same
 * command continues where it stopped, and the recording is the same bytes as an uninterrupted run's.
 */
export async function download(options: DownloadOptions): Promise<Result<DownloadOutcome, DownloadFailure>> {
  const logger = options.logger ?? silentLogger;
  const partsDir = `${options.out}.part`;
  const opened = await openParts(options, partsDir, logger);
  if (!opened.ok) return opened;
  const { parts, resumed } = opened.value;
  const { plan } = parts;
  const total = plan.symbols.length * plan.channels.reduce((n, c) => n + unitsOf(plan, c), 0);
  let rows = 0;
  const doneUnits = (): number => plan.symbols.reduce((n, s) => n + plan.channels.reduce((m, c) => m + unitsDone(plan, c, parts.progress(s, c)), 0), 0);
  for (const symbol of plan.symbols) for (const channel of plan.channels) rows += parts.progress(symbol, channel).lines;
  for (const symbol of plan.symbols) {
    for (const channel of plan.channels) {
      options.onProgress?.({ done: doneUnits(), total, rows, symbol, channel, resumed });
      for (let progress = parts.progress(symbol, channel); !progress.done; progress = parts.progress(symbol, channel)) {
        if (options.signal?.aborted === true) return ok({ kind: 'interrupted', parts: partsDir });
        const cursor = progress.next === undefined ? firstCursor(plan, channel) : progress;
        const page = await withRetries(() => fetchPage(options.api, plan, symbol, channel, cursor), options, `${symbol} ${channel}`, logger);
        if (page === 'aborted') return ok({ kind: 'interrupted', parts: partsDir });
        if (!page.ok) return err({ code: 'VENUE', message: `${symbol} ${channel}: ${page.error.message}; rerun the same command to continue from where it stopped`, userMistake: false });
        parts.append(symbol, channel, page.value.lines, page.value.cursor);
        rows += page.value.lines.length;
        options.onProgress?.({ done: doneUnits(), total, rows, symbol, channel, resumed });
      }
    }
  }
  const merged = await mergeParts(parts, options.out);
  parts.remove();
  return ok({ kind: 'written', out: options.out, events: merged.events, plan });
}

async function openParts(options: DownloadOptions, dir: string, logger: Logger): Promise<Result<{ parts: DownloadParts; resumed: boolean }, DownloadFailure>> {
  const { request, api } = options;
  const state = DownloadParts.read(dir);
  if (state !== undefined) {
    if (!sameRequest(state.plan, request)) {
      return err({ code: 'OTHER_DOWNLOAD', message: `${dir} holds an unfinished download with other settings: rerun that command to finish it, or delete ${dir}`, userMistake: true });
    }
    return ok({ parts: DownloadParts.resume(dir, state), resumed: true });
  }
  if (existsSync(options.out) && options.force !== true) return err({ code: 'EXISTS', message: `${options.out} exists: give --force to overwrite it`, userMistake: true });
  const now = await api.serverTime();
  if (!now.ok) return err({ code: 'VENUE', message: `server time: ${now.error.message}`, userMistake: false });
  const plan = planDownload(request, now.value);
  if (typeof plan === 'string') return err({ code: 'BAD_REQUEST', message: plan, userMistake: true });
  const instruments = await instrumentsOf(api, plan.symbols, logger);
  if (!instruments.ok) return instruments;
  return ok({ parts: DownloadParts.create(dir, { plan, instruments: instruments.value, channels: {} }), resumed: false });
}

/** Each symbol's instrument from exchangeInfo, as the recording header describes it (fees estimated, tiers from exchangeInfo). */
async function instrumentsOf(api: DownloadApi, symbols: readonly string[], logger: Logger): Promise<Result<SimInstrument[], DownloadFailure>> {
  const info = await api.exchangeInfo();
  if (!info.ok) return err({ code: 'VENUE', message: `exchangeInfo: ${info.error.message}`, userMistake: false });
  const hints = await loadInstrumentHints({ market: api, symbols, logger });
  const out: SimInstrument[] = [];
  const unknown: string[] = [];
  for (const symbol of symbols) {
    const contract = info.value.contracts.find((c) => c.symbol === symbol);
    const instrument = contract === undefined ? undefined : toInstrument(contract);
    if (instrument === undefined || !instrument.ok) {
      unknown.push(instrument === undefined ? symbol : `${symbol} (${instrument.error})`);
      continue;
    }
    out.push(headerInstrument(instrument.value, hints.get(symbol), undefined).instrument);
  }
  if (unknown.length > 0) {
    const listed = info.value.contracts.slice(0, 8).map((c) => c.symbol);
    return err({ code: 'UNKNOWN_SYMBOL', message: `--symbols: the exchange lists no tradable contract ${unknown.join(', ')} (it lists e.g. ${listed.join(', ')})`, userMistake: true });
  }
  return ok(out);
}

function unitsOf(plan: DownloadPlan, channel: DownloadChannel): number {
  return channel === 'funding' || channel === 'trades' ? 1 : (plan.lastOpen - plan.firstOpen) / plan.intervalMs + 1;
}

function unitsDone(plan: DownloadPlan, channel: DownloadChannel, progress: ChannelProgress): number {
  if (progress.done) return unitsOf(plan, channel);
  if (channel === 'funding' || channel === 'trades' || typeof progress.next !== 'number') return 0;
  return Math.max(0, (progress.next - plan.firstOpen) / plan.intervalMs);
}

/** A request tried again after retryable failures (rate limits, unknown status, a server hiccup), waiting longer each time. */
async function withRetries(
  attempt: () => Promise<Result<Page, VenueError>>,
  options: DownloadOptions,
  what: string,
  logger: Logger,
): Promise<Result<Page, VenueError> | 'aborted'> {
  const tries = options.attempts ?? 5;
  for (let i = 1; ; i++) {
    const result = await attempt();
    if (result.ok || !result.error.retryable || i >= tries) return result;
    const now = options.time.clock.now();
    const backoff = Math.min(MAX_WAIT_MS, 1000 * 2 ** (i - 1));
    const waitMs = result.error.retryAt !== undefined && result.error.retryAt > now ? Math.min(MAX_WAIT_MS, result.error.retryAt - now) : backoff;
    logger.warn({ what, attempt: i, waitMs, err: result.error.message }, 'download request failed; trying again');
    if (await wait(options, waitMs)) return 'aborted';
  }
}

/** Waits `ms` on the time source's scheduler; true when aborted meanwhile. */
function wait(options: DownloadOptions, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const { signal } = options;
    if (signal?.aborted === true) {
      resolve(true);
      return;
    }
    const onAbort = (): void => {
      timer.unsubscribe();
      resolve(true);
    };
    const timer = options.time.scheduler.schedule(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(false);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
