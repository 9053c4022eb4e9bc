import type { Decimal } from '../core/decimal.js';
import type { Side } from './instrument.js';

/** Market data as typed events. Prices and quantities are decimals; quantities in contracts. */

export interface BookLevel {
  readonly price: Decimal;
  readonly qty: Decimal;
}

export type KlineInterval = '1m' | '3m' | '5m' | '15m' | '30m' | '1h' | '2h' | '4h' | '6h' | '8h' | '12h' | '1d' | '1w' | '1M';

export interface BookSnapshot {
  readonly type: 'market.book';
  readonly symbol: string;
  readonly time: number;
  /** Best first. */
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
  /**
   * The best bid's and ask's price, where the source knows them without building every level (a
   * replay's book, whose levels are made when first read); absent: the first level's. Read them with
   * `bestBidOf`/`bestAskOf`.
   */
  readonly bestBidPrice?: Decimal | undefined;
  readonly bestAskPrice?: Decimal | undefined;
  /** `midpoint` of the best bid and ask, where the source makes it without them; absent: made from them (undefined: a side is empty). */
  readonly midPrice?: Decimal | undefined;
}

/** The book's best bid price: `bids[0]`'s, or the source's own when it has one. */
export function bestBidOf(book: BookSnapshot): Decimal | undefined {
  return 'bestBidPrice' in book ? book.bestBidPrice : book.bids[0]?.price;
}

/** The book's best ask price: `asks[0]`'s, or the source's own when it has one. */
export function bestAskOf(book: BookSnapshot): Decimal | undefined {
  return 'bestAskPrice' in book ? book.bestAskPrice : book.asks[0]?.price;
}

export interface TradePrinted {
  readonly type: 'market.trade';
  readonly symbol: string;
  readonly time: number;
  /** Exchange trade id when the source has one; else a deterministic key of the trade. */
  readonly tradeId: string;
  readonly price: Decimal;
  readonly qty: Decimal;
  readonly takerSide: Side;
}

export interface KlineUpdated {
  readonly type: 'market.kline';
  readonly symbol: string;
  readonly time: number;
  readonly interval: KlineInterval;
  readonly openTime: number;
  readonly closeTime: number;
  readonly open: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly close: Decimal;
  readonly volume: Decimal;
  /** True once the interval has ended; a closed kline is delivered exactly once. */
  readonly closed: boolean;
}

export interface BookTickerUpdated {
  readonly type: 'market.bookTicker';
  readonly symbol: string;
  readonly time: number;
  readonly bidPrice: Decimal;
  readonly bidQty: Decimal;
  readonly askPrice: Decimal;
  readonly askQty: Decimal;
}

export interface Ticker24hUpdated {
  readonly type: 'market.ticker24h';
  readonly symbol: string;
  readonly time: number;
  readonly open: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly last: Decimal;
  readonly volume: Decimal;
  readonly quoteVolume: Decimal;
}

export interface MarkPriceUpdated {
  readonly type: 'market.markPrice';
  readonly symbol: string;
  readonly time: number;
  readonly price: Decimal;
  /**
   * `price` exactly, as an integer count of 10^−`priceScale` (both present or both absent), where the
   * source holds the price as integers already (the simulator's ticks on the symbol's price grid): a
   * reader computing in integers reads these instead of the decimal. The live parsers leave them absent.
   */
  readonly priceUnits?: number | undefined;
  readonly priceScale?: number | undefined;
}

export interface IndexPriceUpdated {
  readonly type: 'market.indexPrice';
  readonly symbol: string;
  readonly time: number;
  readonly price: Decimal;
}

export interface FundingRateUpdated {
  readonly type: 'market.fundingRate';
  readonly symbol: string;
  readonly time: number;
  readonly rate: Decimal;
  readonly nextFundingTime: number;
}

export interface OpenInterestUpdated {
  readonly type: 'market.openInterest';
  readonly symbol: string;
  readonly time: number;
  /** Contracts. */
  readonly openInterest: Decimal;
}

export type MarketEvent =
  | BookSnapshot
  | TradePrinted
  | KlineUpdated
  | BookTickerUpdated
  | Ticker24hUpdated
  | MarkPriceUpdated
  | IndexPriceUpdated
  | FundingRateUpdated
  | OpenInterestUpdated;

export type MarketEventType = MarketEvent['type'];
