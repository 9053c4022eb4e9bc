import type { Decimal } from '../core/decimal.js';
import { assertNever } from '../core/errors.js';
import { midpoint } from '../core/scaled-integer.js';
import { bestAskOf, bestBidOf } from '../model/market-events.js';
import type { BookSnapshot, IndexPriceUpdated, KlineInterval, KlineUpdated, MarketEvent, MarkPriceUpdated, TradePrinted } from '../model/market-events.js';

/** Market state of one symbol: book, best prices, last/mark/index price, funding, open interest, klines. */
export class SymbolMarket {
  book: BookSnapshot | undefined;
  /** The latest trade, when it is what set the last price: its price is read (and made a decimal) only when asked. */
  private lastTrade: TradePrinted | undefined;
  private lastOther: Decimal | undefined;
  /** The latest mark and index price events: their prices are read (and made decimals, when the source defers it) only when asked. */
  private mark: MarkPriceUpdated | undefined;
  private index: IndexPriceUpdated | undefined;
  fundingRate: Decimal | undefined;
  openInterest: Decimal | undefined;
  lastTime: number | undefined;
  private tickerBid: { price: Decimal; time: number } | undefined;
  private tickerAsk: { price: Decimal; time: number } | undefined;
  private readonly klineSeries = new Map<KlineInterval, KlineUpdated[]>();
  /** The best bid and ask the last mid price was made of, and it: most asks find both unchanged (no new decimal). */
  private midOf: { bid: Decimal; ask: Decimal; mid: Decimal } | undefined;

  constructor(private readonly klineHistory: number) {}

  apply(event: MarketEvent): boolean {
    if (this.lastTime === undefined || event.time > this.lastTime) this.lastTime = event.time;
    switch (event.type) {
      case 'market.book':
        if (this.book !== undefined && this.book.time > event.time) return false;
        this.book = event;
        return true;
      case 'market.trade':
        this.lastTrade = event;
        return true;
      case 'market.kline':
        return this.applyKline(event);
      case 'market.bookTicker':
        this.tickerBid = { price: event.bidPrice, time: event.time };
        this.tickerAsk = { price: event.askPrice, time: event.time };
        return true;
      case 'market.ticker24h':
        this.setLastPrice(event.last);
        return true;
      case 'market.markPrice':
        this.mark = event;
        return true;
      case 'market.indexPrice':
        this.index = event;
        return true;
      case 'market.fundingRate':
        this.fundingRate = event.rate;
        return true;
      case 'market.openInterest':
        this.openInterest = event.openInterest;
        return true;
      default:
        return assertNever(event, 'market event');
    }
  }

  get markPrice(): Decimal | undefined {
    return this.mark?.price;
  }

  get indexPrice(): Decimal | undefined {
    return this.index?.price;
  }

  /** The last traded price: of the latest trade, ticker or kline close, whichever came last. */
  get lastPrice(): Decimal | undefined {
    return this.lastTrade === undefined ? this.lastOther : this.lastTrade.price;
  }

  private setLastPrice(price: Decimal): void {
    this.lastTrade = undefined;
    this.lastOther = price;
  }

  /** The fresher of the book's best bid and the book ticker's. */
  bestBid(): Decimal | undefined {
    const book = this.book;
    const fromBook = book === undefined ? undefined : bestBidOf(book);
    if (fromBook !== undefined && (this.tickerBid === undefined || book!.time >= this.tickerBid.time)) return fromBook;
    return this.tickerBid?.price;
  }

  bestAsk(): Decimal | undefined {
    const book = this.book;
    const fromBook = book === undefined ? undefined : bestAskOf(book);
    if (fromBook !== undefined && (this.tickerAsk === undefined || book!.time >= this.tickerAsk.time)) return fromBook;
    return this.tickerAsk?.price;
  }

  midPrice(): Decimal | undefined {
    const book = this.book;
    // Both best prices the book's (no fresher ticker side): the book's own mid when it makes one.
    if (book !== undefined && 'midPrice' in book && (this.tickerBid === undefined || book.time >= this.tickerBid.time) && (this.tickerAsk === undefined || book.time >= this.tickerAsk.time)) {
      const mid = book.midPrice;
      if (mid !== undefined) return mid;
    }
    const bid = this.bestBid();
    const ask = this.bestAsk();
    if (bid === undefined || ask === undefined) return undefined;
    const last = this.midOf;
    // The same decimals (a book's best prices are made once, from a shared cache): comparing values costs more than the midpoint.
    if (last !== undefined && last.bid === bid && last.ask === ask) return last.mid;
    const mid = midpoint(bid, ask);
    this.midOf = { bid, ask, mid };
    return mid;
  }

  /** Klines kept over all intervals, and how many series they are in. */
  klineCount(): { readonly klines: number; readonly series: number } {
    let klines = 0;
    for (const series of this.klineSeries.values()) klines += series.length;
    return { klines, series: this.klineSeries.size };
  }

  klines(interval: KlineInterval): readonly KlineUpdated[] {
    return this.klineSeries.get(interval) ?? [];
  }

  private applyKline(kline: KlineUpdated): boolean {
    let series = this.klineSeries.get(kline.interval);
    if (series === undefined) {
      series = [];
      this.klineSeries.set(kline.interval, series);
    }
    const last = series[series.length - 1];
    if (last !== undefined && last.openTime > kline.openTime) return false;
    if (last !== undefined && last.openTime === kline.openTime) {
      if (last.closed) return false;
      series[series.length - 1] = kline;
    } else {
      series.push(kline);
      if (series.length > this.klineHistory) series.shift();
    }
    this.setLastPrice(kline.close);
    return true;
  }
}
