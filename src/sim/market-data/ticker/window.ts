import { dec } from '../../../core/decimal.js';
import type { RealtimeInterval } from '../../../protocol/market-params.js';
import { quoteTotal } from '../klines/candle.js';
import type { CandleSeries } from '../klines/candle-series.js';
import { bucketOf, DAY_MS } from '../klines/intervals.js';

export type { RealtimeInterval };

const MINUTE = 60_000;
const UTC8 = 8 * 3_600_000;

/**
 * First minute of a ticker window. `24h` rolls by the minute: the current minute and the 1439 before
 * it. `1d` starts at 00:00 UTC today, `1d+8` at 00:00 UTC+8.
 */
export function windowStart(now: number, window: RealtimeInterval): number {
  switch (window) {
    case '24h':
      return bucketOf(now, '1m').open - 1439 * MINUTE;
    case '1d':
      return Math.floor(now / DAY_MS) * DAY_MS;
    case '1d+8':
      return Math.floor((now + UTC8) / DAY_MS) * DAY_MS - UTC8;
  }
}

/** Open, high, low (ticks), volume (lots) and quote volume (tick × lot units) over a window of minute candles. */
export interface WindowStats {
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly volume: number;
  readonly quote: bigint;
}

/** Stats of the minute candles from `start`; with none, everything stands at `last` with no volume. */
export function windowStats(minutes: CandleSeries, start: number, last: number): WindowStats {
  let open: number | undefined;
  let high = last;
  let low = last;
  let volume = 0;
  let quote = 0n;
  for (const candle of minutes.from(start)) {
    if (open === undefined) {
      open = candle.open;
      high = candle.high;
      low = candle.low;
    }
    if (candle.high > high) high = candle.high;
    if (candle.low < low) low = candle.low;
    volume += candle.volume;
    quote += quoteTotal(candle);
  }
  return { open: open ?? last, high, low, volume, quote };
}

/** Price change ratio (c − o) / o, to 4 decimals as live ("-0.0026"). */
export function changeRatio(open: number, close: number): string {
  return open === 0 ? '0' : dec(close - open).div(open).toDecimalPlaces(4).toFixed();
}
