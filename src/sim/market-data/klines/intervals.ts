import { KLINE_INTERVAL_MS, klineInterval } from '../../../protocol/market-params.js';
import type { KlineInterval } from '../../../protocol/market-params.js';

export type { KlineInterval };

/** The 14 REST kline intervals (API-NOTES §6.4), shortest first. */
export const KLINE_INTERVALS: readonly KlineInterval[] = klineInterval.options;

export function isKlineInterval(value: string): value is KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(value);
}

export const DAY_MS = KLINE_INTERVAL_MS['1d'];
/** Epoch 0 was a Thursday; weekly candles open on Monday 00:00 UTC. */
const WEEK_OFFSET = 4 * DAY_MS;

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
  const length = KLINE_INTERVAL_MS[interval];
  const offset = interval === '1w' ? WEEK_OFFSET : 0;
  const open = ts - (((ts - offset) % length) + length) % length;
  return { open, next: open + length };
}
