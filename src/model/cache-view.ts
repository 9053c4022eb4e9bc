import type { Decimal } from '../core/decimal.js';
import type { Balance, Position } from './account.js';
import type { Instrument, PositionSide } from './instrument.js';
import type { BookSnapshot, KlineInterval, KlineUpdated } from './market-events.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from './orders.js';

/** The single read model of the daemon, as strategies and the risk engine see it (read-only). */
export interface CacheView {
  instrument(symbol: string): Instrument | undefined;
  instruments(): readonly Instrument[];
  balance(asset: string): Balance | undefined;
  balances(): readonly Balance[];
  /** Undefined or qty 0 when flat. */
  position(symbol: string, positionSide: PositionSide): Position | undefined;
  positions(): readonly Position[];
  order(clientOrderId: string): OrderSnapshot | undefined;
  /** Open regular orders, all symbols or one. */
  openOrders(symbol?: string): readonly OrderSnapshot[];
  /** `openOrders(symbol).length`, without the list. */
  openOrderCount(symbol?: string): number;
  algoOrder(clientOrderId: string): AlgoOrderSnapshot | undefined;
  openAlgoOrders(symbol?: string): readonly AlgoOrderSnapshot[];
  /** `openAlgoOrders(symbol).length`, without the list. */
  openAlgoOrderCount(symbol?: string): number;
  book(symbol: string): BookSnapshot | undefined;
  bestBid(symbol: string): Decimal | undefined;
  bestAsk(symbol: string): Decimal | undefined;
  /** (bid + ask) / 2 from the book or book ticker. */
  midPrice(symbol: string): Decimal | undefined;
  lastPrice(symbol: string): Decimal | undefined;
  markPrice(symbol: string): Decimal | undefined;
  indexPrice(symbol: string): Decimal | undefined;
  fundingRate(symbol: string): Decimal | undefined;
  openInterest(symbol: string): Decimal | undefined;
  /** The newest klines of an interval, oldest first (closed ones, then the forming one if any). */
  klines(symbol: string, interval: KlineInterval): readonly KlineUpdated[];
  /** Exchange time of the newest market event of the symbol. */
  lastMarketTime(symbol: string): number | undefined;
}
