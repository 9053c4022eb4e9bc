import { dec, isOpening, isOpenStatus } from 'stratd/strategy';
import type { BusEvent, Decimal, DenialCode, ExchangeCommand, HandlerContext, Intent, OrderSnapshot, PositionSide, Side } from 'stratd/strategy';
import type { QuoteTarget } from './ladder.js';
import { driftBps, ladder } from './ladder.js';
import type { MarketMakerParams } from './params.js';

type Ctx = HandlerContext<MarketMakerParams>;

/** A refused placement is tried again after this long. */
export const RETRY_AFTER_MS = 1_000;

/** One slot's order: what we asked for, and what is on its way for it. */
interface Quote {
  readonly slot: string;
  readonly id: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly reduceOnly: boolean;
  price: Decimal;
  quantity: Decimal;
  pending: 'place' | 'modify' | 'cancel' | undefined;
}

class SymbolQuotes {
  readonly bySlot = new Map<string, Quote>();
  readonly byId = new Map<string, Quote>();
  readonly retryAt = new Map<string, number>();
  /** Our open orders no slot claims, being cancelled. */
  readonly strays = new Set<string>();
  /** The current stale spell has been answered with a cancel-all. */
  swept = false;

  add(quote: Quote): void {
    this.bySlot.set(quote.slot, quote);
    this.byId.set(quote.id, quote);
  }

  remove(quote: Quote): void {
    this.bySlot.delete(quote.slot);
    this.byId.delete(quote.id);
  }
}

/**
 * Two-sided POST_ONLY quotes on every symbol of the instance, `levels` per side, around mid or mark,
 * skewed against the inventory. A quote whose target moved beyond requoteBps is modified in place
 * (cancelled and placed again when the modify is refused); stale market data cancels everything.
 */
export class MarketMaker {
  private readonly books = new Map<string, SymbolQuotes>();

  constructor(private readonly ctx: Ctx) {
    for (const symbol of ctx.symbols) this.books.set(symbol, new SymbolQuotes());
  }

  start(): void {
    for (const symbol of this.ctx.symbols) {
      // Quotes left by an earlier run are priced for another moment: start from a clean book.
      if (this.ctx.openOrders(symbol).length > 0) this.ctx.emit({ type: 'cancel-all', symbol });
      this.requote(symbol);
    }
  }

  stop(): void {
    for (const symbol of this.ctx.symbols) this.ctx.emit({ type: 'cancel-all', symbol });
  }

  onEvent(event: BusEvent): void {
    switch (event.type) {
      case 'market.book':
      case 'market.bookTicker':
      case 'market.markPrice':
      case 'market.trade':
        this.onMarket(event.symbol);
        return;
      case 'account.position':
        this.requote(event.position.symbol);
        return;
      case 'account.order':
        this.onOrder(event.order);
        return;
      case 'command.submitted':
        if (event.command.type === 'modify-order') this.modified(event.command.symbol, event.command.clientOrderId);
        return;
      case 'command.failed':
        this.onFailed(event.command);
        return;
      case 'intent.denied':
        this.onDenied(event.intent, event.denial.code);
        return;
      case 'account.resynced':
        for (const symbol of this.ctx.symbols) this.resync(symbol);
        return;
      case 'timer':
        for (const symbol of this.ctx.symbols) {
          this.sweepIfStale(symbol);
          this.requote(symbol);
        }
        return;
      default:
        return;
    }
  }

  private isStale(symbol: string): boolean {
    const last = this.ctx.cache.lastMarketTime(symbol);
    return last === undefined || this.ctx.clock.now() - last > this.ctx.params.staleAfterMs;
  }

  private onMarket(symbol: string): void {
    const book = this.books.get(symbol);
    if (book === undefined) return;
    if (!this.isStale(symbol)) book.swept = false;
    this.requote(symbol);
  }

  /** No market data for staleAfterMs: every quote of the symbol goes, once per stale spell. */
  private sweepIfStale(symbol: string): void {
    const book = this.books.get(symbol);
    if (book === undefined || book.swept || !this.isStale(symbol) || book.bySlot.size === 0) return;
    book.swept = true;
    this.ctx.logger.warn({ symbol, staleAfterMs: this.ctx.params.staleAfterMs }, 'market-maker: market data is stale, cancelling all quotes');
    this.ctx.emit({ type: 'cancel-all', symbol });
    // Placements still on their way are cancelled when they show up.
    for (const quote of book.bySlot.values()) if (quote.pending !== 'place') quote.pending = 'cancel';
  }

  private reference(symbol: string): Decimal | undefined {
    return this.ctx.params.reference === 'mid' ? this.ctx.cache.midPrice(symbol) : this.ctx.cache.markPrice(symbol);
  }

  private requote(symbol: string): void {
    const book = this.books.get(symbol);
    const reference = this.reference(symbol);
    if (book === undefined || reference === undefined || this.isStale(symbol)) return;
    const { cache, params } = this.ctx;
    const wanted = ladder(
      {
        reference,
        long: this.ctx.position(symbol, 'LONG')?.qty ?? dec(0),
        short: this.ctx.position(symbol, 'SHORT')?.qty ?? dec(0),
        bestBid: cache.bestBid(symbol),
        bestAsk: cache.bestAsk(symbol),
      },
      params,
    );
    const targets = new Map(wanted.map((t) => [t.slot, t]));
    for (const quote of book.bySlot.values()) {
      if (quote.pending !== undefined) continue;
      const target = targets.get(quote.slot);
      if (target === undefined || target.positionSide !== quote.positionSide || target.reduceOnly !== quote.reduceOnly) {
        this.cancel(quote);
        continue;
      }
      const moved = driftBps(quote.price, target.price).gt(params.requoteBps);
      const resized = !target.quantity.eq(quote.quantity);
      if (moved || resized) this.modify(quote, target, moved, resized);
    }
    const now = this.ctx.clock.now();
    for (const target of wanted) {
      if (book.bySlot.has(target.slot) || now < (book.retryAt.get(target.slot) ?? 0)) continue;
      this.place(symbol, book, target);
    }
  }

  private place(symbol: string, book: SymbolQuotes, target: QuoteTarget): void {
    // A close waits until the closing orders ahead of it (being cancelled or replaced) are gone: the
    // exchange counts them against the position (-2010), and so does the risk engine. Their end requotes.
    if (target.reduceOnly && target.quantity.gt(this.availableToClose(symbol, target.positionSide, book))) return;
    const key = this.nextKey();
    const id = this.ctx.clientOrderIdFor(key);
    book.add({ slot: target.slot, id, side: target.side, positionSide: target.positionSide, reduceOnly: target.reduceOnly, price: target.price, quantity: target.quantity, pending: 'place' });
    this.ctx.emit({
      type: 'place',
      key,
      symbol,
      side: target.side,
      positionSide: target.positionSide,
      orderType: 'LIMIT',
      price: target.price,
      quantity: target.quantity,
      timeInForce: 'POST_ONLY',
      ...(target.reduceOnly ? { reduceOnly: true } : {}),
    });
  }

  /** Its own position side minus what its open closing orders reserve, and its closes still on their way. */
  private availableToClose(symbol: string, positionSide: PositionSide, book: SymbolQuotes): Decimal {
    const { cache } = this.ctx;
    let available = this.ctx.position(symbol, positionSide)?.qty ?? dec(0);
    for (const order of this.ctx.openOrders(symbol)) {
      if (order.positionSide === positionSide && !isOpening(order.side, order.positionSide)) available = available.minus(order.quantity.minus(order.filledQty));
    }
    for (const quote of book.bySlot.values()) {
      if (quote.reduceOnly && quote.positionSide === positionSide && cache.order(quote.id) === undefined) available = available.minus(quote.quantity);
    }
    return available;
  }

  /** In place when the exchange has acknowledged the order; until then the quote waits. */
  private modify(quote: Quote, target: QuoteTarget, moved: boolean, resized: boolean): void {
    const order = this.ctx.cache.order(quote.id);
    if (order === undefined || !isOpenStatus(order.status)) return;
    quote.pending = 'modify';
    if (moved) quote.price = target.price;
    if (resized) quote.quantity = target.quantity;
    this.ctx.emit({ type: 'modify', clientOrderId: quote.id, ...(moved ? { price: target.price } : {}), ...(resized ? { quantity: target.quantity } : {}) });
  }

  private cancel(quote: Quote): void {
    if (quote.pending === 'cancel') return;
    quote.pending = 'cancel';
    this.ctx.emit({ type: 'cancel', clientOrderId: quote.id });
  }

  private cancelStray(book: SymbolQuotes, id: string): void {
    if (book.strays.has(id)) return;
    book.strays.add(id);
    this.ctx.emit({ type: 'cancel', clientOrderId: id });
  }

  private onOrder(order: OrderSnapshot): void {
    const book = this.books.get(order.symbol);
    if (book === undefined) return;
    const id = order.clientOrderId;
    const open = isOpenStatus(order.status);
    const quote = book.byId.get(id);
    if (quote === undefined) {
      if (open) this.cancelStray(book, id);
      else book.strays.delete(id);
      return;
    }
    if (open) {
      if (quote.pending === 'place') quote.pending = undefined;
      if (book.swept) this.cancel(quote);
      return;
    }
    book.remove(quote);
    // A fill is followed by its position event, which requotes with the new inventory; the book that
    // caused the fill may not have arrived yet, so quoting now would use the old price.
    if (order.status !== 'FILLED' && order.filledQty.isZero()) this.requote(order.symbol);
  }

  private modified(symbol: string, id: string): void {
    const quote = this.books.get(symbol)?.byId.get(id);
    if (quote?.pending === 'modify') quote.pending = undefined;
  }

  private quoteOf(id: string): { book: SymbolQuotes; quote: Quote | undefined } | undefined {
    for (const book of this.books.values()) {
      const quote = book.byId.get(id);
      if (quote !== undefined || book.strays.has(id)) return { book, quote };
    }
    return undefined;
  }

  /** The placement never came to be: the slot quotes again (after a little while, with `backOff`). */
  private dropPlacement(id: string, backOff: boolean): void {
    const found = this.quoteOf(id);
    if (found?.quote === undefined) return;
    found.book.remove(found.quote);
    if (backOff) found.book.retryAt.set(found.quote.slot, this.ctx.clock.now() + RETRY_AFTER_MS);
  }

  /**
   * A refused modify falls back to cancel (then a fresh placement), unless the order is not open any
   * more (filled meanwhile: its event removes the quote).
   */
  private modifyRefused(id: string, gone: boolean): void {
    const quote = this.quoteOf(id)?.quote;
    if (quote?.pending !== 'modify') return;
    quote.pending = undefined;
    const order = this.ctx.cache.order(id);
    if (!gone && order !== undefined && isOpenStatus(order.status)) this.cancel(quote);
  }

  private cancelRefused(id: string): void {
    const found = this.quoteOf(id);
    if (found === undefined) return;
    found.book.strays.delete(id);
    if (found.quote?.pending === 'cancel') found.quote.pending = undefined;
  }

  private onFailed(command: ExchangeCommand): void {
    if (command.type === 'place-order') this.dropPlacement(command.clientOrderId, true);
    else if (command.type === 'modify-order') this.modifyRefused(command.clientOrderId, false);
    else if (command.type === 'cancel-order') this.cancelRefused(command.clientOrderId);
  }

  /** NOT_READY (a resync) and NO_MARK_PRICE only wait for the daemon or for data: no back-off, the next event requotes. */
  private onDenied(intent: Intent, code: DenialCode): void {
    if (intent.type === 'place' && intent.key !== undefined) this.dropPlacement(this.ctx.clientOrderIdFor(intent.key), code !== 'NOT_READY' && code !== 'NO_MARK_PRICE');
    else if (intent.type === 'modify') this.modifyRefused(intent.clientOrderId, code === 'UNKNOWN_ORDER');
    else if (intent.type === 'cancel') this.cancelRefused(intent.clientOrderId);
  }

  /** After a resync: quotes the exchange no longer shows are forgotten, open orders nobody claims cancelled. */
  private resync(symbol: string): void {
    const book = this.books.get(symbol);
    if (book === undefined) return;
    for (const quote of [...book.bySlot.values()]) {
      const order = this.ctx.cache.order(quote.id);
      if (order === undefined ? quote.pending !== 'place' : !isOpenStatus(order.status)) book.remove(quote);
    }
    for (const order of this.ctx.openOrders(symbol)) if (!book.byId.has(order.clientOrderId)) this.cancelStray(book, order.clientOrderId);
    this.requote(symbol);
  }

  /** Keys never repeat, across restarts too: the sequence lives in the instance's store. */
  private nextKey(): string {
    const next = Number(this.ctx.store.get('seq') ?? 0) + 1;
    this.ctx.store.set('seq', next);
    return `mm${next}`;
  }
}
