import type { MarketStreamErrorCode } from '../sim/market-stream/stream-error.js';
import { MarketStreamError } from '../sim/market-stream/stream-error.js';

export type BacktestErrorCode =
  | MarketStreamErrorCode
  | 'NO_RECORDINGS'
  | 'NO_EVENTS'
  | 'CONFLICTING_INSTRUMENTS'
  | 'UNKNOWN_SYMBOL'
  | 'BAD_RANGE'
  | 'BAR_INTERVAL'
  | 'START_FAILED';

/** Why a backtest could not run (bad recordings, a range or symbols they do not cover): one readable message. */
export class BacktestError extends Error {
  override readonly name = 'BacktestError';
  constructor(
    readonly code: BacktestErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** A recording that cannot be read; the stream error's message already names file and line. */
  static fromStream(error: MarketStreamError): BacktestError {
    return new BacktestError(error.code, error.message);
  }
}

/** The BacktestError for a failure that is the recording's fault; anything else is rethrown by the caller. */
export function asBacktestError(error: unknown): BacktestError | undefined {
  if (error instanceof BacktestError) return error;
  if (error instanceof MarketStreamError) return BacktestError.fromStream(error);
  return undefined;
}
