import type { DepthEvent, MarketEvent, PriceLevel, TradeEvent } from '../sim/market-stream/events.js';

/**
 * Why one class per kind for every recording path: the engine, the kernel and the backtest are optimized
 * by V8 for the objects they see first. A process's first backtest (the JSONL) and its next ones (the
 * prepared form) handed them depth and trade events of different classes, and the optimized code of the
 * whole per-event path was thrown away and rebuilt at the start of the second (~30 deopts, ~0.2 s). Both
 * paths now hand out these classes, with the same fields in the same order.
 */

/** A prepared recording's level columns, read by row: where a depth event's sides come from when it does not hold them. */
export interface DepthRows {
  bids(row: number): PriceLevel[];
  asks(row: number): PriceLevel[];
  bestBid(row: number): string | undefined;
  bestAsk(row: number): string | undefined;
}

/** A prepared recording's text column, read by row. */
export interface TextRows {
  get(row: number): string;
}

/**
 * A replayed depth event. From a prepared recording its sides become [price, quantity] pairs when first
 * read, from the columns (which never change): a replay's engine reads only the best price of each side
 * of most snapshots (`bestBidPrice`/`bestAskPrice`, straight from the columns), and building ~10 pairs per
 * row was the largest allocation of a data-only replay. Each side is built once and the same array handed
 * out on every read. The sides are accessors of the class, not own properties: a spread (`{ ...event }`)
 * has none (`eventAt` copies an event), `toJSON` gives the plain form.
 */
export class ReplayDepth implements DepthEvent {
  readonly type = 'depth';
  readonly ts: number;
  readonly symbol: string;
  /** undefined: the sides are held (a JSONL line's). */
  readonly #rows: DepthRows | undefined;
  readonly #row: number;
  #bids: readonly PriceLevel[] | undefined;
  #asks: readonly PriceLevel[] | undefined;

  private constructor(ts: number, symbol: string, rows: DepthRows | undefined, row: number, bids: readonly PriceLevel[] | undefined, asks: readonly PriceLevel[] | undefined) {
    this.ts = ts;
    this.symbol = symbol;
    this.#rows = rows;
    this.#row = row;
    this.#bids = bids;
    this.#asks = asks;
  }

  /** The event of a prepared recording's row. */
  static ofRow(ts: number, symbol: string, rows: DepthRows, row: number): ReplayDepth {
    return new ReplayDepth(ts, symbol, rows, row, undefined, undefined);
  }

  /** A decoded event (a JSONL line's), its sides held. */
  static of(event: DepthEvent): ReplayDepth {
    return new ReplayDepth(event.ts, event.symbol, undefined, 0, event.bids, event.asks);
  }

  get bids(): readonly PriceLevel[] {
    return (this.#bids ??= this.#rows?.bids(this.#row) ?? []);
  }

  get asks(): readonly PriceLevel[] {
    return (this.#asks ??= this.#rows?.asks(this.#row) ?? []);
  }

  get bestBidPrice(): string | undefined {
    const rows = this.#rows;
    return rows === undefined ? this.bids[0]?.[0] : rows.bestBid(this.#row);
  }

  get bestAskPrice(): string | undefined {
    const rows = this.#rows;
    return rows === undefined ? this.asks[0]?.[0] : rows.bestAsk(this.#row);
  }

  toJSON(): DepthEvent {
    return { type: this.type, ts: this.ts, symbol: this.symbol, bids: this.bids, asks: this.asks };
  }
}

/**
 * A replayed trade. From a prepared recording its id text is cut from the column when first read: the id
 * is a fresh string per trade (the other fields are shared dictionary text), and a replay's engine and
 * kernel never read it unless a strategy looks at a print's id. `id` is an accessor, as ReplayDepth's
 * sides: a spread has none (`eventAt` copies an event), `toJSON` gives the plain form.
 */
export class ReplayTrade implements TradeEvent {
  readonly type = 'trade';
  readonly ts: number;
  readonly symbol: string;
  readonly price: string;
  readonly qty: string;
  readonly buyerIsMaker: boolean;
  /** undefined: the id is held (a JSONL line's). */
  readonly #ids: TextRows | undefined;
  readonly #row: number;
  readonly #id: string | undefined;

  private constructor(ts: number, symbol: string, price: string, qty: string, buyerIsMaker: boolean, ids: TextRows | undefined, row: number, id: string | undefined) {
    this.ts = ts;
    this.symbol = symbol;
    this.price = price;
    this.qty = qty;
    this.buyerIsMaker = buyerIsMaker;
    this.#ids = ids;
    this.#row = row;
    this.#id = id;
  }

  /** The event of a prepared recording's row. */
  static ofRow(ts: number, symbol: string, price: string, qty: string, buyerIsMaker: boolean, ids: TextRows, row: number): ReplayTrade {
    return new ReplayTrade(ts, symbol, price, qty, buyerIsMaker, ids, row, undefined);
  }

  /** A decoded event (a JSONL line's), its id held. */
  static of(event: TradeEvent): ReplayTrade {
    return new ReplayTrade(event.ts, event.symbol, event.price, event.qty, event.buyerIsMaker, undefined, 0, event.id);
  }

  get id(): string {
    return this.#id ?? this.#ids?.get(this.#row) ?? '';
  }

  toJSON(): TradeEvent {
    return { type: this.type, ts: this.ts, symbol: this.symbol, id: this.id, price: this.price, qty: this.qty, buyerIsMaker: this.buyerIsMaker };
  }
}

/** A decoded event as a replay hands it out: depth and trade events as the classes above; the other kinds are plain in every path. */
export function replayEvent(event: MarketEvent): MarketEvent {
  switch (event.type) {
    case 'depth':
      return event instanceof ReplayDepth ? event : ReplayDepth.of(event);
    case 'trade':
      return event instanceof ReplayTrade ? event : ReplayTrade.of(event);
    default:
      return event;
  }
}
