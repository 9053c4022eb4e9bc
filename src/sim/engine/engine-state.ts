import type { Decimal } from '../../core/decimal.js';
import type { MarketEvent } from '../market-stream/events.js';
import type { SimInstrument } from '../market-stream/instruments.js';
import { ClientIdIndex } from './client-id-index.js';
import type { EngineIds } from './ids.js';
import type { FuturesAccount, UserRecord } from './ledger.js';
import { FlowBook } from './ledger.js';
import type { OrderRecord } from './order-record.js';
import { reject } from './rejects.js';
import type { BookPrices } from './symbol-book.js';
import { SymbolBook } from './symbol-book.js';
import type { AccountEvent, AccountRef, Category, SimReject, UserTradeView } from './types.js';
import { emptyObjectArray } from '../../core/empty-arrays.js';

/**
 * How long finished records stay queryable: finished orders and plan rows, user trades and balance flows.
 * The exchange keeps order history about two weeks (API-NOTES §4.5: `historyOrders` defaults to three days
 * back, ccxt notes about two weeks kept); past the age or the count, the oldest go.
 */
export interface HistoryRetention {
  /** Records older than this (market time) are purged. */
  readonly maxAgeMs: number;
  /** At most this many finished orders, finished plan rows and balance flows, and this many trades per account. */
  readonly maxRecords: number;
}

export const DEFAULT_HISTORY_RETENTION: HistoryRetention = { maxAgeMs: 14 * 86_400_000, maxRecords: 20_000 };

/** How often (market time) records are checked for age. */
const AGE_PURGE_EVERY_MS = 60_000;

/** State shared by the engine's parts: books, users, ids, time and the event outlets. */
export class EngineState {
  readonly books = new Map<string, SymbolBook>();
  readonly users = new Map<string, UserRecord>();
  /** Open orders and finished ones still in history (see HistoryRetention). */
  readonly orders = new Map<string, OrderRecord>();
  /** The same orders by account and client order id (add them with `addOrder`). */
  readonly clientIds = new ClientIdIndex();
  /** Newest last, per futures account id; the oldest go past the retention. */
  readonly trades = new Map<string, UserTradeView[]>();
  readonly flows: FlowBook;
  /** Futures accounts holding a position, per symbol (funding and liquidation visit only these). */
  readonly holders = new Map<string, Set<FuturesAccount>>();
  time: number;
  private readonly accountListeners: Array<(event: AccountEvent) => void> = emptyObjectArray();
  private readonly marketListeners: Array<(event: MarketEvent, book: BookPrices | undefined) => void> = emptyObjectArray();
  /** Finished orders in the order they finished (from `finishedHead` on), with the time they did. */
  private finished: Array<{ readonly order: OrderRecord; readonly at: number } | undefined> = emptyObjectArray();
  private finishedHead = 0;
  private lastAgePurge: number;
  /** When `purgeByAge` next has work (a market minute after its last run): the per-event check reads this field alone. */
  nextAgePurge: number;
  constructor(
    readonly instruments: readonly SimInstrument[],
    readonly ids: EngineIds,
    startTime: number,
    readonly retention: HistoryRetention = DEFAULT_HISTORY_RETENTION,
  ) {
    if (!(retention.maxAgeMs > 0 && Number.isSafeInteger(retention.maxRecords) && retention.maxRecords > 0)) {
      throw new RangeError(`history retention needs a positive age and count, got ${JSON.stringify(retention)}`);
    }
    this.flows = new FlowBook(ids.flow, retention.maxRecords);
    this.time = startTime;
    this.lastAgePurge = startTime;
    this.nextAgePurge = startTime + AGE_PURGE_EVERY_MS;
    for (const instrument of instruments) {
      this.books.set(instrument.symbol, new SymbolBook(instrument));
      // Made now, not at a run's first position: a holder set made in optimized code deoptimized it (no feedback for the construct).
      this.holders.set(instrument.symbol, new Set());
    }
  }

  /** A new order: kept by id and by client id until the history lets it go. */
  addOrder(order: OrderRecord): void {
    this.orders.set(order.orderId, order);
    this.clientIds.add(order);
  }

  /** An order reached a final status: it stays in history until the retention lets it go. */
  orderFinished(order: OrderRecord): void {
    this.finished.push({ order, at: this.time });
    while (this.finished.length - this.finishedHead > this.retention.maxRecords) this.dropFinished();
    this.compactFinished();
  }

  /** Finished orders still kept. */
  get finishedOrders(): number {
    return this.finished.length - this.finishedHead;
  }

  /** Purges records past the retention's age, at most once a market minute; answers the cutoff when it ran. */
  purgeByAge(): number | undefined {
    if (this.time - this.lastAgePurge < AGE_PURGE_EVERY_MS) return undefined;
    this.lastAgePurge = this.time;
    this.nextAgePurge = this.time + AGE_PURGE_EVERY_MS;
    const cutoff = this.time - this.retention.maxAgeMs;
    for (let head = this.finished[this.finishedHead]; head !== undefined && head.at < cutoff; head = this.finished[this.finishedHead]) this.dropFinished();
    this.compactFinished();
    for (const [accountId, list] of this.trades) {
      let drop = 0;
      while (drop < list.length && (list[drop]?.time ?? Infinity) < cutoff) drop++;
      if (drop === list.length) this.trades.delete(accountId);
      else if (drop > 0) list.splice(0, drop);
    }
    this.flows.purge(cutoff);
    return cutoff;
  }

  private dropFinished(): void {
    const entry = this.finished[this.finishedHead];
    if (entry === undefined) return;
    this.finished[this.finishedHead] = undefined;
    this.finishedHead += 1;
    // Finished is final; the record may only have been replaced if its id was reused (it is not).
    if (this.orders.get(entry.order.orderId) === entry.order && !entry.order.isOpen) {
      this.orders.delete(entry.order.orderId);
      this.clientIds.remove(entry.order);
    }
  }

  private compactFinished(): void {
    if (this.finishedHead > 1024 && this.finishedHead * 2 > this.finished.length) {
      this.finished = this.finished.slice(this.finishedHead);
      this.finishedHead = 0;
    }
  }

  onAccountEvent(listener: (event: AccountEvent) => void): () => void {
    this.accountListeners.push(listener);
    return () => {
      const at = this.accountListeners.indexOf(listener);
      if (at >= 0) this.accountListeners.splice(at, 1);
    };
  }

  onMarketEvent(listener: (event: MarketEvent, book: BookPrices | undefined) => void): () => void {
    this.marketListeners.push(listener);
    return () => {
      const at = this.marketListeners.indexOf(listener);
      if (at >= 0) this.marketListeners.splice(at, 1);
    };
  }

  emit(event: AccountEvent): void {
    for (const listener of this.accountListeners) listener(event);
  }

  /** `book`: the event's symbol's book, the event applied (undefined for a symbol the engine does not list). */
  publishMarket(event: MarketEvent, book: BookPrices | undefined): void {
    const listeners = this.marketListeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]?.(event, book);
  }

  account(ref: AccountRef): FuturesAccount | undefined {
    return this.users.get(ref.userId)?.futures[ref.category];
  }

  /** The book of a symbol tradable in `category`, or the exchange's refusal. */
  book(symbol: string, category: Category): SymbolBook | SimReject {
    const book = this.books.get(symbol);
    if (book === undefined) return reject.badSymbol(symbol);
    if (book.instrument.category !== category) return reject.symbolCategory(symbol, category);
    return book;
  }

  markHolder(account: FuturesAccount, symbol: string, holding: boolean): void {
    let set = this.holders.get(symbol);
    if (set === undefined) {
      set = new Set();
      this.holders.set(symbol, set);
    }
    if (holding) set.add(account);
    else set.delete(account);
  }

  recordTrade(accountId: string, trade: UserTradeView): void {
    let list = this.trades.get(accountId);
    if (list === undefined) {
      list = emptyObjectArray();
      this.trades.set(accountId, list);
    }
    list.push(trade);
    if (list.length > this.retention.maxRecords) list.splice(0, list.length - this.retention.maxRecords);
  }

  /** Trades kept, over all accounts. */
  get tradeCount(): number {
    let n = 0;
    for (const list of this.trades.values()) n += list.length;
    return n;
  }

  /** Decimal price of `ticks` on a symbol's grid. */
  priceOf(book: SymbolBook, ticks: number): Decimal {
    return book.priceDecimals.of(ticks);
  }

  /** Mark price for margin and PnL: mark, else last trade, else undefined. */
  markDecimal(book: SymbolBook): Decimal | undefined {
    const ticks = book.markTicks > 0 ? book.markTicks : book.lastTicks;
    if (ticks <= 0) return undefined;
    if (book.markMemoTicks === ticks && book.markMemo !== undefined) return book.markMemo;
    const value = this.priceOf(book, ticks);
    book.markMemoTicks = ticks;
    book.markMemo = value;
    return value;
  }
}

