import { dec } from '../../core/decimal.js';
import type { LongShortPeriod } from '../../protocol/market-params.js';
import type { Candle } from './klines/candle.js';
import { quoteTotal } from './klines/candle.js';
import type { GridText } from './grid-text.js';
import { DAY_MS } from './klines/intervals.js';
import type { KlineSet } from './klines/set.js';
import type { LongShortRow } from './wire-rows.js';

export type { LongShortPeriod };

/** Only the latest 30 days of long/short data exist (document 001). */
export const LONG_SHORT_HISTORY_MS = 30 * DAY_MS;

/** How far taker imbalance moves the long share away from one half. */
const LONG_SHARE_SENSITIVITY = '0.2';

/**
 * Synthetic global long/short account ratio, one row per trade candle of `period`: the long share is
 * 0.5 + 0.2 × (taker buy − taker sell) / volume of that candle (0.3 to 0.7), so it follows who was
 * aggressive in the market. Ratios to 4 decimals.
 */
export function longShortRow(symbol: string, candle: Candle): LongShortRow {
  const imbalance = candle.volume === 0 ? dec(0) : dec(2 * candle.takerBuyVolume - candle.volume).div(candle.volume);
  const long = imbalance.mul(LONG_SHARE_SENSITIVITY).add('0.5').toDecimalPlaces(4);
  const short = dec(1).sub(long);
  return {
    symbol,
    timeStamp: candle.openTime,
    longShortRatio: long.div(short).toDecimalPlaces(4).toFixed(),
    longAccount: long.toFixed(),
    shortAccount: short.toFixed(),
  };
}

/** Starting value of a synthetic insurance fund, in the settle coin (≈ USD). */
export const INSURANCE_BASE = '1000000';
/** Share of traded quote volume the fund gains (liquidation surplus in a real market). */
const INSURANCE_ACCRUAL = '0.0001';

/**
 * Synthetic insurance fund values at each 00:00 UTC from `firstDay` to `lastDay` (newest first): the
 * base plus 0.01 % of all quote volume traded before that midnight (daily candles).
 */
export function insuranceValues(trades: KlineSet, grid: GridText, firstDay: number, lastDay: number): { readonly day: number; readonly value: string }[] {
  const days: number[] = [];
  for (let day = firstDay; day <= lastDay; day += DAY_MS) days.push(day);
  const values: { day: number; value: string }[] = [];
  let cumulative = 0n;
  let index = 0;
  const daily = [...trades.of('1d').from(0)];
  for (const day of days) {
    while (index < daily.length && (daily[index]?.openTime ?? Infinity) < day) {
      const candle = daily[index];
      if (candle !== undefined) cumulative += quoteTotal(candle);
      index++;
    }
    const value = dec(grid.quoteText(cumulative)).mul(INSURANCE_ACCRUAL).add(INSURANCE_BASE).toDecimalPlaces(8).toFixed();
    values.push({ day, value });
  }
  return values.reverse();
}
