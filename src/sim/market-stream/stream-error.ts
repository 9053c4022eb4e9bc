export type MarketStreamErrorCode =
  | 'NOT_A_MARKET_STREAM'
  | 'UNSUPPORTED_VERSION'
  | 'BAD_HEADER'
  | 'BAD_LINE'
  | 'UNKNOWN_SYMBOL'
  | 'UNDECLARED_CHANNEL'
  | 'OUT_OF_ORDER'
  | 'UNREADABLE';

/** A recording that cannot be read (or written) as a market stream; the message names file and line. */
export class MarketStreamError extends Error {
  override readonly name = 'MarketStreamError';
  constructor(
    readonly code: MarketStreamErrorCode,
    readonly file: string,
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${reason}`);
  }
}

/** Something skipped while reading, such as the torn last line of a recording cut short. */
export interface MarketStreamWarning {
  readonly code: 'TORN_LAST_LINE';
  readonly file: string;
  readonly line: number;
  readonly message: string;
}
