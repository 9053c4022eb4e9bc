import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { CacheView } from '../../model/cache-view.js';
import type { FundingPeriod, MarketChannel } from '../../sim/market-stream/events.js';
import { MARKET_CHANNELS } from '../../sim/market-stream/events.js';
import type { InstrumentHints } from './instruments.js';

/** What to do when the recording's files exist already. */
export type ExistingFiles = 'refuse' | 'overwrite' | 'next';

export interface RotateSettings {
  /** Start a new part once the market file on disk reaches this many bytes (checked at each flush). */
  readonly sizeBytes?: number;
  /** Start a new part at every multiple of this in exchange time (1 h: hourly files from :00). */
  readonly everyMs?: number;
}

/** The daemon's view of instruments and prices (the kernel cache satisfies it). */
export type RecorderMarketView = Pick<CacheView, 'instrument' | 'markPrice' | 'midPrice' | 'lastPrice'>;

export interface RecorderOptions {
  /** The market stream file; parts and the account section are named after it (recorder/files.ts). */
  readonly out: string;
  /** True: gzip (".gz" is added to the names). A name ending in ".gz" is gzipped regardless. */
  readonly gzip?: boolean;
  /** Default 'refuse': an existing file is an error, never truncated. 'next': number a new part after the last one. */
  readonly existing?: ExistingFiles;
  readonly rotate?: RotateSettings;
  /** The symbols recorded (the daemon's market section); other symbols' events are ignored. */
  readonly symbols: readonly string[];
  /** The channels the header declares (default all five); events of others are ignored. */
  readonly channels?: readonly MarketChannel[];
  /** Symbols recorded without depth whose book ticker becomes a one-level depth snapshot. */
  readonly depthFromBookTicker?: readonly string[];
  /** Write the account section (default true). */
  readonly account?: boolean;
  readonly market: RecorderMarketView;
  /** Exact risk tiers and fee rates per symbol (recorder/venue-hints.ts); missing ones are estimated. */
  readonly hints?: ReadonlyMap<string, InstrumentHints>;
  readonly time: TimeSource;
  readonly logger: Logger;
  /** How often buffered lines go to disk (default 1000 ms). */
  readonly flushEveryMs?: number;
  /** How long an event waits for older ones polled late (default 3000 ms of exchange time). */
  readonly reorderMs?: number;
  /** Funding period until the symbol's funding time has moved on once (default 8H). */
  readonly fundingPeriod?: FundingPeriod;
}

export const DEFAULT_FLUSH_EVERY_MS = 1000;
export const DEFAULT_REORDER_MS = 3000;

/** Options a caller got wrong (a bug or a bad command line): the reason. */
export function checkRecorderOptions(options: Pick<RecorderOptions, 'out' | 'symbols' | 'channels' | 'flushEveryMs' | 'reorderMs' | 'rotate'>): Result<void, string> {
  if (options.out === '') return err('the output file name is empty');
  if (options.symbols.length === 0) return err('no symbols to record');
  const channels = options.channels ?? MARKET_CHANNELS;
  if (channels.length === 0) return err('no channels to record');
  const positive = (value: number | undefined): boolean => value === undefined || (Number.isSafeInteger(value) && value > 0);
  if (!positive(options.flushEveryMs)) return err(`flushEveryMs ${String(options.flushEveryMs)} is not a positive whole number of milliseconds`);
  if (options.reorderMs !== undefined && !(Number.isSafeInteger(options.reorderMs) && options.reorderMs >= 0)) return err(`reorderMs ${options.reorderMs} is negative or not whole`);
  if (!positive(options.rotate?.sizeBytes)) return err(`rotate size ${String(options.rotate?.sizeBytes)} is not a positive number of bytes`);
  if (!positive(options.rotate?.everyMs)) return err(`rotate interval ${String(options.rotate?.everyMs)} is not a positive number of milliseconds`);
  return ok(undefined);
}
