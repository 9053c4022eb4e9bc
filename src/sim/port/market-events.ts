// Snapshots and trades repeat most of their prices and many quantities from one event to the next.
import type { Decimal } from '../../core/decimal.js';
import { decimalOfText as decimalOf } from '../../core/decimal-cache.js';
import { assertNever } from '../../core/errors.js';
import { midpoint } from '../../core/scaled-integer.js';
import type { Side } from '../../model/instrument.js';
import type { BookLevel, BookSnapshot, IndexPriceUpdated, MarketEvent, MarkPriceUpdated, TradePrinted } from '../../model/market-events.js';
import type { DepthEvent, IndexPriceEvent, MarketEvent as SimMarketEvent, MarkPriceEvent, PriceLevel, TradeEvent } from '../market-stream/events.js';
import { bestAskPrice as bestAskText, bestBidPrice as bestBidText } from '../market-stream/events.js';
import type { GridDecimals } from '../engine/grid-decimals.js';
import type { BookPrices } from '../engine/symbol-book.js';

/**
 * The decimal of a price of an event: from the engine's decimals of its grid when the engine took the
 * price's ticks from this event (`ticks` > 0, exact: the same value as the text), else from the text.
 */
function priceOf(text: string, ticks: number, grid: GridDecimals | undefined): Decimal {
  return grid !== undefined && ticks > 0 ? grid.of(ticks) : decimalOf(text);
}

/**
 * One level whose price and quantity become decimals when first read: a strategy asking for the mid
 * price reads the best level of each side only, and converting a whole side (two decimal lookups per
 * level) for it was the largest cost of its handler. Accessors of the class, as LazyBook's (a spread has
 * no `price`/`qty`); `toJSON` gives the eager form.
 */
class LazyLevel implements BookLevel {
  readonly #level: PriceLevel;
  #price: Decimal | undefined;
  #qty: Decimal | undefined;

  constructor(level: PriceLevel) {
    this.#level = level;
    this.#price = undefined;
    this.#qty = undefined;
  }

  get price(): Decimal {
    return (this.#price ??= decimalOf(this.#level[0]));
  }

  get qty(): Decimal {
    return (this.#qty ??= decimalOf(this.#level[1]));
  }

  toJSON(): BookLevel {
    return { price: this.price, qty: this.qty };
  }
}

function levelsOf(side: readonly PriceLevel[]): BookLevel[] {
  const out: BookLevel[] = new Array<BookLevel>(side.length);
  for (let i = 0; i < side.length; i++) out[i] = new LazyLevel(side[i]!);
  return out;
}

/**
 * The book of a depth event with its levels made decimals when first read: most events of a replay reach
 * no strategy that reads every level (a data-only replay reads none), and a side of 5–25 levels costs two
 * decimal lookups per level. Each side is converted once, the same array handed out on every read, and
 * `toJSON` gives the snapshot an eager conversion made. The levels are accessors of the class, not own
 * properties: a spread (`{ ...book }`) has no `bids`/`asks` — read them by name. (Own accessors, from an
 * object literal or `Object.defineProperty`, cost about 10–20× this class in V8: the whole gain.)
 */
class LazyBook implements BookSnapshot {
  readonly type = 'market.book';
  readonly symbol: string;
  readonly time: number;
  readonly #depth: DepthEvent;
  readonly #grid: GridDecimals | undefined;
  /** The best prices' ticks as the engine took them from this event (0: not known). */
  readonly #bidTicks: number;
  readonly #askTicks: number;
  #bids: readonly BookLevel[] | undefined;
  #asks: readonly BookLevel[] | undefined;
  /** null: not read yet (undefined is an empty side's). */
  #bestBid: Decimal | undefined | null;
  #bestAsk: Decimal | undefined | null;
  #mid: Decimal | undefined | null;

  constructor(depth: DepthEvent, book: BookPrices | undefined) {
    this.symbol = depth.symbol;
    this.time = depth.ts;
    this.#depth = depth;
    this.#grid = book?.priceDecimals;
    this.#bidTicks = book === undefined ? 0 : book.bestBidTicks;
    this.#askTicks = book === undefined ? 0 : book.bestAskTicks;
    this.#bids = undefined;
    this.#asks = undefined;
    this.#bestBid = null;
    this.#bestAsk = null;
    this.#mid = null;
  }

  get bids(): readonly BookLevel[] {
    return (this.#bids ??= levelsOf(this.#depth.bids));
  }

  get asks(): readonly BookLevel[] {
    return (this.#asks ??= levelsOf(this.#depth.asks));
  }

  /** The best prices without a side's levels: what a mid price reads (a prepared row's straight from its columns), made once. */
  get bestBidPrice(): Decimal | undefined {
    if (this.#bestBid === null) {
      const text = bestBidText(this.#depth);
      this.#bestBid = text === undefined ? undefined : priceOf(text, this.#bidTicks, this.#grid);
    }
    return this.#bestBid;
  }

  get bestAskPrice(): Decimal | undefined {
    if (this.#bestAsk === null) {
      const text = bestAskText(this.#depth);
      this.#bestAsk = text === undefined ? undefined : priceOf(text, this.#askTicks, this.#grid);
    }
    return this.#bestAsk;
  }

  /** The best prices' midpoint, from their ticks when the engine took both from this event (their decimals not read), made once. */
  get midPrice(): Decimal | undefined {
    if (this.#mid === null) {
      const grid = this.#grid;
      const fromTicks = grid !== undefined && this.#bidTicks > 0 && this.#askTicks > 0 ? grid.midOf(this.#bidTicks, this.#askTicks) : undefined;
      if (fromTicks !== undefined) this.#mid = fromTicks;
      else {
        const bid = this.bestBidPrice;
        const ask = this.bestAskPrice;
        this.#mid = bid === undefined || ask === undefined ? undefined : midpoint(bid, ask);
      }
    }
    return this.#mid;
  }

  toJSON(): BookSnapshot {
    return { type: this.type, symbol: this.symbol, time: this.time, bids: this.bids, asks: this.asks };
  }
}

/** A trade whose price and quantity become decimals when first read (the values an eager conversion makes; see LazyBook). */
class LazyTrade implements TradePrinted {
  readonly type = 'market.trade';
  readonly symbol: string;
  readonly time: number;
  readonly takerSide: Side;
  readonly #trade: TradeEvent;
  readonly #grid: GridDecimals | undefined;
  readonly #ticks: number;
  #price: Decimal | undefined;
  #qty: Decimal | undefined;

  constructor(trade: TradeEvent, book: BookPrices | undefined) {
    this.symbol = trade.symbol;
    this.time = trade.ts;
    // The buyer was the maker: the taker sold.
    this.takerSide = trade.buyerIsMaker ? 'SELL' : 'BUY';
    this.#trade = trade;
    this.#grid = book?.priceDecimals;
    this.#ticks = book === undefined ? 0 : book.lastTicks;
    this.#price = undefined;
    this.#qty = undefined;
  }

  /** Read through: a prepared recording's trade cuts its id text only when asked. */
  get tradeId(): string {
    return this.#trade.id;
  }

  get price(): Decimal {
    return (this.#price ??= priceOf(this.#trade.price, this.#ticks, this.#grid));
  }

  get qty(): Decimal {
    return (this.#qty ??= decimalOf(this.#trade.qty));
  }

  toJSON(): TradePrinted {
    return { type: this.type, symbol: this.symbol, time: this.time, tradeId: this.tradeId, price: this.price, qty: this.qty, takerSide: this.takerSide };
  }
}

/**
 * A mark or index price whose decimal is made when first read (most of a replay's reach no reader of the
 * price; see LazyBook). A mark price the engine took ticks from carries their integer digits too
 * (`MarkPriceUpdated.priceUnits`/`priceScale`: the same value); undefined otherwise.
 */
class LazyPrice<K extends MarkPriceUpdated['type'] | IndexPriceUpdated['type']> {
  readonly type: K;
  readonly symbol: string;
  readonly time: number;
  readonly priceUnits: number | undefined;
  readonly priceScale: number | undefined;
  readonly #text: string;
  readonly #grid: GridDecimals | undefined;
  readonly #ticks: number;
  #price: Decimal | undefined;

  constructor(type: K, event: MarkPriceEvent | IndexPriceEvent, grid: GridDecimals | undefined, ticks: number, withUnits: boolean) {
    this.type = type;
    this.symbol = event.symbol;
    this.time = event.ts;
    const units = withUnits && grid !== undefined && ticks > 0 ? grid.scaledOf(ticks) : undefined;
    this.priceUnits = units;
    this.priceScale = units === undefined || grid === undefined ? undefined : grid.scale;
    this.#text = event.price;
    this.#grid = grid;
    this.#ticks = ticks;
    this.#price = undefined;
  }

  get price(): Decimal {
    return (this.#price ??= priceOf(this.#text, this.#ticks, this.#grid));
  }

  toJSON(): { readonly type: K; readonly symbol: string; readonly time: number; readonly price: Decimal } {
    return { type: this.type, symbol: this.symbol, time: this.time, price: this.price };
  }
}

/**
 * One engine market event as the kernel's model event, stamped with the engine event's `ts`:
 * depth → market.book, trade → market.trade, mark → market.markPrice, index → market.indexPrice,
 * funding → market.fundingRate. Quantities stay contracts on both sides. A bar (a downloaded history)
 * has no model event of its own: undefined (the backtest builds klines from bars). This is the one
 * place a replayed event's decimal text becomes decimal.js values: a book's levels, a trade's price and
 * quantity, and mark and index prices when first read; a funding rate at once. `book`: the engine's
 * book of the symbol just after it applied `event` (its prices' decimals are the engine's, by ticks).
 */
export function modelMarketEvent(event: SimMarketEvent, book?: BookPrices): MarketEvent | undefined {
  switch (event.type) {
    case 'depth':
      return new LazyBook(event, book);
    case 'trade':
      return new LazyTrade(event, book);
    case 'mark':
      return new LazyPrice('market.markPrice', event, book?.priceDecimals, book === undefined ? 0 : book.markTicks, true);
    case 'index':
      return new LazyPrice('market.indexPrice', event, book?.priceDecimals, book === undefined ? 0 : book.indexTicks, false);
    case 'funding':
      return { type: 'market.fundingRate', symbol: event.symbol, time: event.ts, rate: decimalOf(event.rate), nextFundingTime: event.nextFundingTime };
    case 'bar':
      return undefined;
    default:
      return assertNever(event, 'sim market event');
  }
}
