import { InvariantError } from '../../core/errors.js';
import type { KlineInterval } from '../../model/market-events.js';

/** Every kline interval of the venue, for strategies' param schemas (`z.enum(KLINE_INTERVALS)`). */
export const KLINE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '1w', '1M'] as const satisfies readonly KlineInterval[];

/** Which price of a kline a single-input indicator reads: hl2 = (high + low) / 2, hlc3 and ohlc4 likewise. */
export const PRICE_SOURCES = ['open', 'high', 'low', 'close', 'hl2', 'hlc3', 'ohlc4'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

/** The closed klines an indicator is fed: one symbol, one interval. */
export interface SeriesSpec {
  readonly symbol: string;
  readonly interval: KlineInterval;
}

export interface PeriodSpec extends SeriesSpec {
  /** Klines in the window (a positive integer). */
  readonly period: number;
}

/** A single-input indicator (EMA, SMA, RSI): `source` defaults to close. */
export interface LineSpec extends PeriodSpec {
  readonly source?: PriceSource;
}

export interface BandsSpec extends LineSpec {
  /** Width of the bands in standard deviations; default 2. */
  readonly deviations?: number;
}

export function seriesKey(spec: SeriesSpec): string {
  return `${spec.symbol}/${spec.interval}`;
}

/** A bad spec is a bug in the strategy (its params are validated before it runs): it throws. */
export function checkSpec(kind: string, spec: PeriodSpec & { readonly deviations?: number }): void {
  if (!Number.isInteger(spec.period) || spec.period < 1) throw new InvariantError('INDICATOR_SPEC', `${kind} period must be a positive integer, got ${spec.period}`);
  if (spec.deviations !== undefined && !(Number.isFinite(spec.deviations) && spec.deviations > 0)) {
    throw new InvariantError('INDICATOR_SPEC', `${kind} deviations must be a positive number, got ${spec.deviations}`);
  }
}
