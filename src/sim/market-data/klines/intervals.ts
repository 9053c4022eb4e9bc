import { klineInterval } from '../../../protocol/market-params.js';
import type { KlineInterval } from '../../../protocol/market-params.js';

export type { KlineInterval };

/** The 14 REST kline intervals (API-NOTES §6.4), shortest first. */
export const KLINE_INTERVALS: readonly KlineInterval[] = klineInterval.options;

export function isKlineInterval(value: string): value is KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(value);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY_MS = 24 * HOUR;
const WEEK = 7 * DAY_MS;
/** Epoch 0 was a Thursday; weekly candles open on Monday 00:00 UTC. */
const WEEK_OFFSET = 4 * DAY_MS;

const FIXED_MS: Readonly<Record<Exclude<KlineInterval, '1M'>, number>> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '6h': 6 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY_MS,
  '1w': WEEK,
};

/** The candle of `interval` that holds `ts`: [open, next). */
export interface Bucket {
  readonly open: number;
  readonly next: number;
}

/** UTC-aligned candle bounds; `1M` follows calendar months, `1w` starts on Mondays. */
export function bucketOf(ts: number, interval: KlineInterval): Bucket {
  if (interval === '1M') {
    const date = new Date(ts);
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth();
    return { open: Date.UTC(year, month, 1), next: Date.UTC(year, month + 1, 1) };
  }
  const length = FIXED_MS[interval];
  const offset = interval === '1w' ? WEEK_OFFSET : 0;
  const open = ts - (((ts - offset) % length) + length) % length;
  return { open, next: open + length };
}
