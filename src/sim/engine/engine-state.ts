import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { MarketEvent } from '../market-stream/events.js';
import type { SimInstrument } from '../market-stream/instruments.js';
import type { EngineIds } from './ids.js';
import type { FuturesAccount, UserRecord } from './ledger.js';
import { FlowBook } from './ledger.js';
import type { OrderRecord } from './order-record.js';
import { reject } from './rejects.js';
import { SymbolBook } from './symbol-book.js';
import type { AccountEvent, AccountRef, Category, SimReject, UserTradeView } from './types.js';

/** State shared by the engine's parts: books, users, ids, time and the event outlets. */
export class EngineState {
  readonly books = new Map<string, SymbolBook>();
  readonly users = new Map<string, UserRecord>();
  readonly orders = new Map<string, OrderRecord>();
  /** Newest last, per futures account id. */
  readonly trades = new Map<string, UserTradeView[]>();
  readonly flows: FlowBook;
  /** Futures accounts holding a position, per symbol (funding and liquidation visit only these). */
  readonly holders = new Map<string, Set<FuturesAccount>>();
  time: number;
  private readonly accountListeners: Array<(event: AccountEvent) => void> = [];
  private readonly marketListeners: Array<(event: MarketEvent) => void> = [];

  constructor(
    readonly instruments: readonly SimInstrument[],
    readonly ids: EngineIds,
    startTime: number,
  ) {
    this.flows = new FlowBook(ids.flow);
    this.time = startTime;
    for (const instrument of instruments) this.books.set(instrument.symbol, new SymbolBook(instrument));
  }

  onAccountEvent(listener: (event: AccountEvent) => void): () => void {
    this.accountListeners.push(listener);
    return () => {
      const at = this.accountListeners.indexOf(listener);
      if (at >= 0) this.accountListeners.splice(at, 1);
    };
  }

  onMarketEvent(listener: (event: MarketEvent) => void): () => void {
    this.marketListeners.push(listener);
    return () => {
      const at = this.marketListeners.indexOf(listener);
      if (at >= 0) this.marketListeners.splice(at, 1);
    };
  }

  emit(event: AccountEvent): void {
    for (const listener of this.accountListeners) listener(event);
  }

  publishMarket(event: MarketEvent): void {
    const listeners = this.marketListeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]?.(event);
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
      list = [];
      this.trades.set(accountId, list);
    }
    list.push(trade);
  }

  /** Decimal price of `ticks` on a symbol's grid. */
  priceOf(book: SymbolBook, ticks: number): Decimal {
    return dec(book.price.toText(ticks));
  }

  /** Mark price for margin and PnL: mark, else last trade, else undefined. */
  markDecimal(book: SymbolBook): Decimal | undefined {
    const ticks = book.markTicks > 0 ? book.markTicks : book.lastTicks;
    return ticks > 0 ? this.priceOf(book, ticks) : undefined;
  }
}

