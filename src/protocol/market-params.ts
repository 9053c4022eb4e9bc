import { z } from 'zod';
import { KLINE_INTERVALS } from './kline-intervals.js';

/** Request enums of the market-data endpoints (document 001, API-NOTES §6.4). */

/** REST kline intervals: the 14 values of API-NOTES §6.4. */
export const klineInterval = z.enum(KLINE_INTERVALS);
export type { KlineInterval } from './kline-intervals.js';

/** Long/short account ratio `period`. */
export const longShortPeriod = z.enum(['5m', '15m', '30m', '1h', '2h', '4h', '6h', '12h', '1d']);
export type LongShortPeriod = z.output<typeof longShortPeriod>;

/** Contract 24h ticker `realtimeInterval`. */
export const realtimeInterval = z.enum(['24h', '1d', '1d+8']);
export type RealtimeInterval = z.output<typeof realtimeInterval>;

/** Depth `limit` values the spec prices (0 asks for "a large amount"). */
export const DEPTH_LIMITS: readonly number[] = [0, 5, 10, 20, 50, 100, 500, 1000];

export { EPOCH_ALIGNED_INTERVAL_MS, KLINE_INTERVAL_MS, klineCloseTime } from './kline-intervals.js';
