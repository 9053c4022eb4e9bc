import type { Decimal } from '../core/decimal.js';
import type { Balance, Position } from '../model/account.js';
import type { CacheView } from '../model/cache-view.js';
import type { Instrument, PositionSide } from '../model/instrument.js';
import type { BookSnapshot, KlineInterval, KlineUpdated } from '../model/market-events.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../model/orders.js';

/**
 * The cache as strategies see it: the same state, except that a kline series ends with its newest
 * closed kline. A forming kline (live pollers deliver one while its interval runs) holds prices from
 * inside an interval a backtest only shows once it has ended; hiding it keeps live and backtest the same
 * and keeps a strategy from reading a candle before its close.
 */
export class ClosedKlineView implements CacheView {
  constructor(private readonly cache: CacheView) {}

  klines(symbol: string, interval: KlineInterval): readonly KlineUpdated[] {
    const all = this.cache.klines(symbol, interval);
    const last = all[all.length - 1];
    return last === undefined || last.closed ? all : all.slice(0, -1);
  }

  instrument(symbol: string): Instrument | undefined {
    return this.cache.instrument(symbol);
  }
  instruments(): readonly Instrument[] {
    return this.cache.instruments();
  }
  balance(asset: string): Balance | undefined {
    return this.cache.balance(asset);
  }
  balances(): readonly Balance[] {
    return this.cache.balances();
  }
  position(symbol: string, positionSide: PositionSide): Position | undefined {
    return this.cache.position(symbol, positionSide);
  }
  positions(): readonly Position[] {
    return this.cache.positions();
  }
  order(clientOrderId: string): OrderSnapshot | undefined {
    return this.cache.order(clientOrderId);
  }
  openOrders(symbol?: string): readonly OrderSnapshot[] {
    return this.cache.openOrders(symbol);
  }
  openOrderCount(symbol?: string): number {
    return this.cache.openOrderCount(symbol);
  }
  algoOrder(clientOrderId: string): AlgoOrderSnapshot | undefined {
    return this.cache.algoOrder(clientOrderId);
  }
  openAlgoOrders(symbol?: string): readonly AlgoOrderSnapshot[] {
    return this.cache.openAlgoOrders(symbol);
  }
  openAlgoOrderCount(symbol?: string): number {
    return this.cache.openAlgoOrderCount(symbol);
  }
  book(symbol: string): BookSnapshot | undefined {
    return this.cache.book(symbol);
  }
  bestBid(symbol: string): Decimal | undefined {
    return this.cache.bestBid(symbol);
  }
  bestAsk(symbol: string): Decimal | undefined {
    return this.cache.bestAsk(symbol);
  }
  midPrice(symbol: string): Decimal | undefined {
    return this.cache.midPrice(symbol);
  }
  lastPrice(symbol: string): Decimal | undefined {
    return this.cache.lastPrice(symbol);
  }
  markPrice(symbol: string): Decimal | undefined {
    return this.cache.markPrice(symbol);
  }
  indexPrice(symbol: string): Decimal | undefined {
    return this.cache.indexPrice(symbol);
  }
  fundingRate(symbol: string): Decimal | undefined {
    return this.cache.fundingRate(symbol);
  }
  openInterest(symbol: string): Decimal | undefined {
    return this.cache.openInterest(symbol);
  }
  lastMarketTime(symbol: string): number | undefined {
    return this.cache.lastMarketTime(symbol);
  }
}
