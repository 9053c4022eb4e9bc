/** Kline intervals and their lengths, without a schema: cheap to import (the CLI's help lists them). */

/** REST kline intervals: the 14 values of API-NOTES §6.4. */
export const KLINE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '1w', '1M'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];

const MINUTE = 60_000;
/** The length of every kline interval of one fixed length (all but the calendar month). */
export const KLINE_INTERVAL_MS: Readonly<Record<Exclude<KlineInterval, '1M'>, number>> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '2h': 120 * MINUTE,
  '4h': 240 * MINUTE,
  '6h': 360 * MINUTE,
  '8h': 480 * MINUTE,
  '12h': 720 * MINUTE,
  '1d': 1440 * MINUTE,
  '1w': 7 * 1440 * MINUTE,
};

/**
 * The intervals whose candles open on multiples of their length since the epoch, so bars of them are
 * built from shorter ones by division: all but weeks (Monday-aligned) and months (calendar-aligned).
 */
export const EPOCH_ALIGNED_INTERVAL_MS: Readonly<Partial<Record<KlineInterval, number>>> = Object.fromEntries(
  Object.entries(KLINE_INTERVAL_MS).filter(([interval]) => interval !== '1w'),
);

/**
 * The last millisecond of the candle opening at `openTime` (live klines send 0 as close time,
 * API-NOTES §5.4). `1M` candles end with their UTC calendar month.
 */
export function klineCloseTime(openTime: number, interval: KlineInterval): number {
  if (interval === '1M') {
    const open = new Date(openTime);
    return Date.UTC(open.getUTCFullYear(), open.getUTCMonth() + 1, 1) - 1;
  }
  return openTime + KLINE_INTERVAL_MS[interval] - 1;
}
