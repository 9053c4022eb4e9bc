import { dec } from '../../../core/decimal.js';
import type { Candle } from './candle.js';
import { quoteTotal, takerQuoteTotal } from './candle.js';
import type { GridText } from '../grid-text.js';
import type { KlineInterval } from './intervals.js';
import type { IndexKlineRow, KlineRow, MarkKlineRow } from '../wire-rows.js';

/** A trade candle as the live 11-element array; close time 0 as live (API-NOTES §5.4 RULE). */
export function klineRow(candle: Candle, grid: GridText): KlineRow {
  return [
    candle.openTime,
    grid.priceText(candle.open),
    grid.priceText(candle.high),
    grid.priceText(candle.low),
    grid.priceText(candle.close),
    grid.quantityText(candle.volume),
    0,
    grid.quoteText(quoteTotal(candle)),
    candle.trades,
    grid.quantityText(candle.takerBuyVolume),
    grid.quoteText(takerQuoteTotal(candle)),
  ];
}

/** An index candle of `token`; `st` is the response time. */
export function indexKlineRow(candle: Candle, grid: GridText, token: string, now: number): IndexKlineRow {
  return {
    t: candle.openTime,
    s: token,
    sn: token,
    c: grid.priceText(candle.close),
    h: grid.priceText(candle.high),
    l: grid.priceText(candle.low),
    o: grid.priceText(candle.open),
    v: '0',
    st: now,
  };
}

/** A mark candle; `change` is (index close − mark close) / mark close of the same candle, 0 without an index candle. */
export function markKlineRow(candle: Candle, index: Candle | undefined, grid: GridText, symbol: string, interval: KlineInterval): MarkKlineRow {
  const change = index === undefined || candle.close === 0 ? '0' : dec(index.close - candle.close).div(candle.close).toDecimalPlaces(8).toFixed();
  return {
    symbol,
    time: candle.openTime,
    low: grid.priceText(candle.low),
    open: grid.priceText(candle.open),
    high: grid.priceText(candle.high),
    close: grid.priceText(candle.close),
    volume: '0',
    curId: candle.openTime,
    klineType: interval,
    change,
  };
}
