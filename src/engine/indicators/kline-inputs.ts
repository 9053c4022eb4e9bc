import type { HighLowClose } from 'trading-signals';
import { assertNever } from '../../core/errors.js';
import type { KlineUpdated } from '../../model/market-events.js';
import { toFloat } from './float-bridge.js';
import type { PriceSource } from './indicator-specs.js';

/** The price a single-input indicator reads from a kline. */
export function sourcePrice(kline: KlineUpdated, source: PriceSource): number {
  switch (source) {
    case 'open':
      return toFloat(kline.open);
    case 'high':
      return toFloat(kline.high);
    case 'low':
      return toFloat(kline.low);
    case 'close':
      return toFloat(kline.close);
    case 'hl2':
      return toFloat(kline.high.plus(kline.low).div(2));
    case 'hlc3':
      return toFloat(kline.high.plus(kline.low).plus(kline.close).div(3));
    case 'ohlc4':
      return toFloat(kline.open.plus(kline.high).plus(kline.low).plus(kline.close).div(4));
    default:
      return assertNever(source, 'price source');
  }
}

/** The candle of range indicators (ATR). */
export function candleOf(kline: KlineUpdated): HighLowClose<number> {
  return { high: toFloat(kline.high), low: toFloat(kline.low), close: toFloat(kline.close) };
}
