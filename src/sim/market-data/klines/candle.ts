/**
 * One candle on integer grids: prices in ticks, volumes in lots, quote volumes in units of
 * tick × lot (× the instrument's quote factor on the wire). A quote total is exact: a number part kept
 * below 2^52 that spills into a bigint part. Index and mark candles use only the price fields.
 */
export interface Candle {
  readonly openTime: number;
  /** Open time of the next candle (exclusive end). */
  readonly nextOpen: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
  readonly takerBuyVolume: number;
  readonly trades: number;
  readonly quoteLow: number;
  readonly quoteHigh: bigint;
  readonly takerQuoteLow: number;
  readonly takerQuoteHigh: bigint;
}

export type MutableCandle = { -readonly [K in keyof Candle]: Candle[K] };

/** Above this a number part moves into the bigint part, so adding another value below it stays exact. */
const SPILL = 2 ** 52;

export function newCandle(openTime: number, nextOpen: number, price: number): MutableCandle {
  return {
    openTime,
    nextOpen,
    open: price,
    high: price,
    low: price,
    close: price,
    volume: 0,
    takerBuyVolume: 0,
    trades: 0,
    quoteLow: 0,
    quoteHigh: 0n,
    takerQuoteLow: 0,
    takerQuoteHigh: 0n,
  };
}

export function addPrice(candle: MutableCandle, price: number): void {
  if (price > candle.high) candle.high = price;
  if (price < candle.low) candle.low = price;
  candle.close = price;
}

/** `price × lots` when exact in a number, else -1 (the candle then multiplies in bigint). */
export function quoteProduct(price: number, lots: number): number {
  const product = price * lots;
  return product < SPILL ? product : -1;
}

/** A trade of `lots` at `price` ticks; `product` from `quoteProduct`. */
export function addTrade(candle: MutableCandle, price: number, lots: number, product: number, takerBuy: boolean): void {
  addPrice(candle, price);
  candle.volume += lots;
  candle.trades++;
  if (product >= 0) {
    candle.quoteLow += product;
    if (candle.quoteLow >= SPILL) {
      candle.quoteHigh += BigInt(candle.quoteLow);
      candle.quoteLow = 0;
    }
  } else {
    candle.quoteHigh += BigInt(price) * BigInt(lots);
  }
  if (!takerBuy) return;
  candle.takerBuyVolume += lots;
  if (product >= 0) {
    candle.takerQuoteLow += product;
    if (candle.takerQuoteLow >= SPILL) {
      candle.takerQuoteHigh += BigInt(candle.takerQuoteLow);
      candle.takerQuoteLow = 0;
    }
  } else {
    candle.takerQuoteHigh += BigInt(price) * BigInt(lots);
  }
}

export function quoteTotal(candle: Candle): bigint {
  return candle.quoteHigh + BigInt(candle.quoteLow);
}

export function takerQuoteTotal(candle: Candle): bigint {
  return candle.takerQuoteHigh + BigInt(candle.takerQuoteLow);
}
