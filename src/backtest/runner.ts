import { InvariantError } from '../core/errors.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { MarketStreamWarning } from '../sim/market-stream/stream-error.js';
import type { BacktestError } from '../recording/error.js';
import { asBacktestError } from '../recording/error.js';
import { BacktestRun } from './run.js';
import type { BacktestOptions, BacktestResult } from './types.js';
import { ParsedRecording } from '../recording/parsed-recording.js';
import type { PreparedCacheOptions } from '../recording/prepared/cache.js';
import { PreparedRecording } from '../recording/prepared/recording.js';
import type { RecordingFeed, RecordingReplay } from '../recording/feed.js';
import { RecordingFileFeed } from '../recording/feed.js';

export { DEFAULT_BACKTEST_LATENCY, DEFAULT_EQUITY_INTERVAL_MS, PROGRESS_EVERY_EVENTS } from './run.js';
export type { BacktestAccount, BacktestOptions, BacktestProgress, BacktestResult, EquityRow, FillRecord, OrderRow } from './types.js';

/**
 * `stratd backtest`: replays recorded market streams in virtual time through the same kernel as
 * `stratd run`, against the simulated exchange's engine. Deterministic: the same recordings and options
 * give the same result (no wall clock, no randomness). A recording that cannot be read, or options it
 * does not cover, is an error value; a bug throws.
 */
export async function runBacktest(options: BacktestOptions): Promise<Result<BacktestResult, BacktestError>> {
  const warnings: MarketStreamWarning[] = [];
  const onWarning = (warning: MarketStreamWarning): void => {
    warnings.push(warning);
    options.onWarning?.(warning);
  };
  let feed: RecordingFeed;
  const recording = options.recording ?? (options.prepared === undefined ? undefined : await preparedOrNot(options.recordings, options.to, options.prepared));
  if (recording !== undefined) {
    if (recording.to !== (options.to ?? Number.POSITIVE_INFINITY)) throw new InvariantError('RECORDING_RANGE', `the recording was parsed up to ${recording.to}, the backtest runs up to ${options.to ?? 'the end'}`);
    feed = recording.replay();
    for (const warning of recording.warnings) onWarning(warning);
  } else {
    try {
      feed = await RecordingFileFeed.open(options.recordings, { onWarning, ...(options.to === undefined ? {} : { to: options.to }) });
    } catch (error: unknown) {
      return failed(error);
    }
  }
  try {
    const run = await BacktestRun.prepare(options, feed, warnings);
    return ok(await run.execute());
  } catch (error: unknown) {
    return failed(error);
  } finally {
    await feed.close();
  }
}

/**
 * Reads `recordings` once (up to `to`, inclusive) for many `runBacktest({ ..., recording })` calls with
 * that same `to`. A recording that cannot be read is an error value, as in runBacktest.
 */
export async function parseRecordings(recordings: readonly string[], to?: number, prepared?: PreparedCacheOptions): Promise<Result<RecordingReplay, BacktestError>> {
  try {
    const fromCache = prepared === undefined ? undefined : await preparedOrNot(recordings, to, prepared);
    return ok(fromCache ?? (await ParsedRecording.parse(recordings, to === undefined ? {} : { to })));
  } catch (error: unknown) {
    return failed(error);
  }
}

/** `parseRecordings` from the JSONL only (no prepared form): events in memory, e.g. to share with a sweep's workers. */
export async function parseJsonlRecordings(recordings: readonly string[], to?: number): Promise<Result<ParsedRecording, BacktestError>> {
  try {
    return ok(await ParsedRecording.parse(recordings, to === undefined ? {} : { to }));
  } catch (error: unknown) {
    return failed(error);
  }
}

/**
 * The recordings' prepared form (read, or built and written); undefined when one cannot be read as a
 * market stream: the JSONL reading then reports it exactly as without the cache (or, when what is wrong
 * lies after `to`, replays what it reads).
 */
async function preparedOrNot(recordings: readonly string[], to: number | undefined, prepared: PreparedCacheOptions): Promise<RecordingReplay | undefined> {
  try {
    return await PreparedRecording.load(recordings, to, prepared);
  } catch (error: unknown) {
    if (asBacktestError(error) === undefined) throw error;
    return undefined;
  }
}

function failed(error: unknown): Result<never, BacktestError> {
  const known = asBacktestError(error);
  if (known === undefined) throw error;
  return err(known);
}
