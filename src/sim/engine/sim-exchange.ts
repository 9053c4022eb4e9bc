import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { err, ok } from '../../core/result.js';
import type { MarketEvent } from '../market-stream/events.js';
import type { SimInstrument } from '../market-stream/instruments.js';
import { DEFAULT_SIM_INSTRUMENTS } from '../market-stream/instruments.js';
import type { StepGrid } from '../market-stream/ticks.js';
import { accountFigures, accountFiguresLater, mathOf } from './account-math.js';
import { AlgoDesk } from './algo/desk.js';
import type { AlgoRecord } from './algo/record.js';
import { DEFAULT_HISTORY_RETENTION, EngineState } from './engine-state.js';
import type { HistoryRetention } from './engine-state.js';
import { FillFollowUps } from './fill-follow-ups.js';
import { EngineIds } from './ids.js';
import type { FuturesAccount } from './ledger.js';
import { UserRecord } from './ledger.js';
import type { OrderRecord } from './order-record.js';
import { checkPrice, resolveLots } from './order-checks.js';
import { maxLeverageOf } from './position-record.js';
import { reject } from './rejects.js';
import { RiskDesk } from './risk-desk.js';
import type { BookPrices, SymbolBook } from './symbol-book.js';
import type { SimVenue } from './sim-venue.js';
import { TradingDesk } from './trading-desk.js';
import { transferDesk } from './transfer/desk.js';
import type {
  AccountEvent,
  AccountRef,
  AccountView,
  AlgoListQuery,
  AlgoOrderView,
  BalanceFlowView,
  Category,
  FlowQuery,
  FuturesBalanceView,
  MarginType,
  ModifyAlgoCommand,
  ModifyOrderCommand,
  OrderListQuery,
  OrderRef,
  OrderView,
  PlaceOrderCommand,
  PlacePlanCommand,
  PositionSide,
  PositionStopsCommand,
  PositionView,
  Side,
  SimReject,
  SimResult,
  SpotBalanceView,
  SubAccountView,
  SymbolSettingsView,
  TradeListQuery,
  TransferCommand,
  UserTradeView,
} from './types.js';
import type { OrderMoment } from './account-moments.js';
import { orderMoment } from './account-moments.js';
import { balanceFiguresLater, balanceView, money, orderView, orderViewOf, positionView } from './views.js';
import type { BalanceFigures } from './views.js';
import { VoucherBook } from '../wallet/voucher-book.js';
import { PositionHistory } from './position-history.js';
import type { ClosedPositionQuery, ClosedPositionView } from './position-history.js';
import type { VoucherStatus, VoucherView } from '../wallet/voucher-book.js';
import { WalletDesk } from '../wallet/wallet-desk.js';
import type { DepositAddressView, DepositView, WalletHistoryQuery, WithdrawalView, WithdrawCommand } from '../wallet/wallet-desk.js';
import type { TableSize } from '../../core/table-size.js';

/** A source of market events in time order (the generator, or a recording loaded for replay). */
export interface MarketFeed {
  /** Time of the next event, or undefined when the feed is exhausted. */
  peekTime(): number | undefined;
  next(): MarketEvent;
  /**
   * The last event's price (a trade, mark or index) or best bid or ask (a depth snapshot) as units of
   * `grid`, when the feed knows them without converting the text again (a prepared recording converts
   * each distinct text once); undefined: convert the event's text.
   */
  lastPriceUnits?(grid: StepGrid): number | undefined;
  lastBestBidUnits?(grid: StepGrid): number | undefined;
  lastBestAskUnits?(grid: StepGrid): number | undefined;
  /**
   * The engine has applied everything due by `time` and acted at it (commands, ticks): a feed that is
   * pushed to as it runs stamps what arrives later after it (see LiveMarketFeed.push).
   */
  advancedTo?(time: number): void;
}

export interface SimUserSetup {
  readonly userId: string;
  readonly email: string;
  readonly remark?: string;
  readonly parentUserId?: string | undefined;
  readonly balances?: {
    readonly MAIN?: Readonly<Record<string, string>>;
    readonly FUTURES?: Readonly<Partial<Record<Category, string>>>;
    readonly COPY_TRADING?: Readonly<Record<string, string>>;
  };
}

export interface SimExchangeOptions {
  readonly instruments?: readonly SimInstrument[];
  readonly users: readonly SimUserSetup[];
  /** Engine time before the first event. */
  readonly startTime: number;
  /** Pulled by `advanceTo`; without one, push events with `applyMarketEvent`. */
  readonly feed?: MarketFeed;
  /** How long finished orders, trades and flows stay queryable; default two weeks, 20 000 records. */
  readonly history?: Partial<HistoryRetention>;
}

/** An account's equity as text: its wallet balance and the unrealized PnL of each open position (by symbol, then side). */
export interface EquityParts {
  readonly balance: string;
  readonly unrealizedPnl: readonly string[];
}

const DAY_MS = 86_400_000;
/** Default rolling window of history queries when no start time is given (API-NOTES §4.5). */
const HISTORY_WINDOW_MS = 7 * DAY_MS;

/**
 * The simulated exchange's engine: a market (pushed or pulled), the account's orders matched against it,
 * accounts, margin, positions, fees, funding, liquidation, plan and TP/SL orders. Deterministic for a
 * given market and sequence of calls; it never reads a clock (its time is the market's and `advanceTo`'s).
 */
export class SimExchange implements SimVenue {
  readonly instruments: readonly SimInstrument[];
  private readonly s: EngineState;
  private readonly desk: TradingDesk;
  private readonly algos: AlgoDesk;
  private readonly risk: RiskDesk;
  private readonly transfers: ReturnType<typeof transferDesk>;
  private readonly feed: MarketFeed | undefined;
  private readonly fundingNext = new Map<string, { next: number; rate: string }>();
  private readonly wallet: WalletDesk;
  private readonly voucherBook = new VoucherBook();
  private readonly closedPositions: PositionHistory;
  /** `equityParts` of each flat account, with the wallet it was made from (asked once a virtual minute by backtests). */
  private readonly flatParts = new Map<FuturesAccount, { readonly wallet: Decimal; readonly parts: EquityParts }>();

  constructor(options: SimExchangeOptions) {
    this.instruments = options.instruments ?? DEFAULT_SIM_INSTRUMENTS;
    this.s = new EngineState(this.instruments, new EngineIds(), options.startTime, { ...DEFAULT_HISTORY_RETENTION, ...options.history });
    this.closedPositions = new PositionHistory(this.s.retention.maxRecords);
    const followUps = new FillFollowUps(this.s, this.closedPositions);
    this.desk = new TradingDesk(this.s, followUps);
    this.algos = followUps.algos = new AlgoDesk(this.s, this.desk);
    this.risk = followUps.risk = new RiskDesk(this.s, this.desk, (account, position) => this.algos.positionClosed(account, position));
    this.transfers = transferDesk(this.s, (account) => this.desk.emitBalance(account));
    this.feed = options.feed;
    this.wallet = new WalletDesk(this.s);
    for (const u of options.users) this.addUser(u);
  }

  private addUser(setup: SimUserSetup): void {
    const ids = this.s.ids.account;
    const user = new UserRecord(setup.userId, setup.email, setup.remark ?? '', setup.parentUserId, ids.next(), ids.next(), ids.next(), ids.next());
    this.s.users.set(user.userId, user);
    this.voucherBook.grant(user.userId, 'USDT', this.s.time);
    for (const [coin, amount] of Object.entries(setup.balances?.MAIN ?? {})) this.deposit({ userId: user.userId, accountType: 'MAIN' }, coin, dec(amount));
    for (const [coin, amount] of Object.entries(setup.balances?.FUTURES ?? {})) if (amount !== undefined && (coin === 'USDT' || coin === 'USDC')) this.deposit({ userId: user.userId, category: coin }, coin, dec(amount));
    for (const [coin, amount] of Object.entries(setup.balances?.COPY_TRADING ?? {})) this.deposit({ userId: user.userId, accountType: 'COPY_TRADING' }, coin, dec(amount));
  }

  instrument(symbol: string): SimInstrument | undefined {
    return this.s.books.get(symbol)?.instrument;
  }

  now(): number {
    return this.s.time;
  }

  advanceTo(time: number): void {
    const feed = this.feed;
    if (feed !== undefined) {
      const units = feed.lastPriceUnits === undefined ? undefined : feed;
      for (let next = feed.peekTime(); next !== undefined && next <= time; next = feed.peekTime()) this.applyMarketEvent(feed.next(), units);
      feed.advancedTo?.(time);
    }
    if (time > this.s.time) this.s.time = time;
    if (this.s.time >= this.s.nextAgePurge) this.purgeHistory();
  }

  /** Sizes of the tables that grow with trading, and the bounds the history retention keeps them under. */
  sizes(): readonly TableSize[] {
    const max = this.s.retention.maxRecords;
    const open = this.s.orders.size - this.s.finishedOrders;
    const openAlgos = this.algos.openCount;
    return [
      { name: 'sim.orders', size: this.s.orders.size, limit: max + open },
      { name: 'sim.finishedOrders', size: this.s.finishedOrders, limit: max },
      { name: 'sim.trades', size: this.s.tradeCount, limit: max * Math.max(1, this.s.trades.size) },
      { name: 'sim.algoOrders', size: this.algos.rows.size, limit: max + openAlgos },
      { name: 'sim.balanceFlows', size: this.s.flows.size, limit: max },
    ];
  }

  /** Finished records past the retention's age go (checked once a market minute). */
  private purgeHistory(): void {
    const cutoff = this.s.purgeByAge();
    if (cutoff !== undefined) this.algos.purge(cutoff, this.s.retention.maxRecords);
  }

  onAccountEvent(listener: (event: AccountEvent) => void): () => void {
    return this.s.onAccountEvent(listener);
  }

  onMarketEvent(listener: (event: MarketEvent, book: BookPrices | undefined) => void): () => void {
    return this.s.onMarketEvent(listener);
  }

  /**
   * One market event: moves the market, fills resting orders, fires triggers, settles and liquidates.
   * `units`: the feed it was just taken from, when that feed tells its prices as units (`lastPriceUnits`).
   */
  applyMarketEvent(event: MarketEvent, units?: MarketFeed): void {
    const s = this.s;
    if (event.ts > s.time) s.time = event.ts;
    const book = s.books.get(event.symbol);
    if (book !== undefined) {
      switch (event.type) {
        case 'trade': {
          const ticks = units?.lastPriceUnits?.(book.price) ?? book.price.toUnits(event.price);
          const fills = book.applyTrade(ticks, event.qty, event.buyerIsMaker);
          if (fills !== undefined) this.desk.applyFills(fills);
          this.algos.onPrice(event.symbol, 'CONTRACT_PRICE', ticks);
          if (book.markTicks === 0) this.risk.checkLiquidations(book);
          break;
        }
        case 'depth': {
          const fills = book.applyDepth(event, units?.lastBestBidUnits?.(book.price), units?.lastBestAskUnits?.(book.price));
          if (fills !== undefined) this.desk.applyFills(fills);
          break;
        }
        case 'mark': {
          book.markTicks = units?.lastPriceUnits?.(book.price) ?? book.price.toUnits(event.price);
          this.algos.onPrice(event.symbol, 'MARK_PRICE', book.markTicks);
          this.risk.checkLiquidations(book);
          break;
        }
        case 'index':
          book.indexTicks = units?.lastPriceUnits?.(book.price) ?? book.price.toUnits(event.price);
          break;
        case 'funding': {
          const previous = this.fundingNext.get(event.symbol);
          if (previous !== undefined && event.nextFundingTime > previous.next) this.risk.settleFunding(book, dec(previous.rate));
          this.fundingNext.set(event.symbol, { next: event.nextFundingTime, rate: event.rate });
          break;
        }
      }
    }
    if (s.time >= s.nextAgePurge) this.purgeHistory();
    s.publishMarket(event, book);
  }

  lastPrice(symbol: string): string | undefined {
    const book = this.s.books.get(symbol);
    return book === undefined || book.lastTicks === 0 ? undefined : book.price.toText(book.lastTicks);
  }

  markPrice(symbol: string): string | undefined {
    const book = this.s.books.get(symbol);
    return book === undefined || book.markTicks === 0 ? undefined : book.price.toText(book.markTicks);
  }

  // ---------------------------------------------------------------- regular orders

  placeOrder(ref: AccountRef, command: PlaceOrderCommand): SimResult<OrderView> {
    const placed = this.placeOrderMoment(ref, command);
    return placed.ok ? ok(orderViewOf(placed.value)) : placed;
  }

  placeOrderMoment(ref: AccountRef, command: PlaceOrderCommand): SimResult<OrderMoment> {
    const account = this.s.account(ref);
    if (account === undefined) return err(reject.userNotFound());
    const placed = this.desk.submit(account, command, command.generation === 'v1' && command.priceType === 'MARKET' ? 'v1' : 'v2');
    if (!placed.ok) return placed;
    const moment = orderMoment(this.s, placed.value);
    // v1 create answers PENDING_NEW while the order is still working (API-NOTES §5.7).
    return ok(command.generation === 'v1' && moment.status === 'NEW' ? { ...moment, status: 'PENDING_NEW' } : moment);
  }

  modifyOrder(ref: AccountRef, orderRef: OrderRef, command: ModifyOrderCommand): SimResult<OrderView> {
    const found = this.findOrder(ref, orderRef);
    if (!found.ok) return found;
    const { account, order } = found.value;
    if (!order.isOpen) return err(reject.notModifiable(order.status));
    const book = this.s.books.get(order.symbol);
    if (book === undefined) return err(reject.badSymbol(order.symbol));
    if (command.newClientOrderId !== undefined && command.newClientOrderId !== order.clientOrderId) {
      for (const o of account.openOrders) if (o !== order && o.clientOrderId === command.newClientOrderId) return err(reject.duplicateClientId(command.newClientOrderId));
    }
    let priceTicks: number;
    if (command.priceType === 'MARKET') {
      const band = book.bandTicks(order.isBuy, book.rates.marketV1);
      if (band === undefined) return err(reject.noDepth(order.symbol));
      priceTicks = band;
    } else {
      const price = checkPrice(book, command.price);
      if (!price.ok) return price;
      priceTicks = price.value;
    }
    const lots = resolveLots(book, command.quantity, undefined, priceTicks);
    if (!lots.ok) return lots;
    // "newClientOrderId: generated if omitted" (document 000, v1 and v2 order/update).
    const clientOrderId = command.newClientOrderId ?? this.s.ids.clientOrder.next();
    const modified = this.desk.modify(account, order, lots.value, priceTicks, command.priceType, clientOrderId);
    if (!modified.ok) return modified;
    const view = orderView(this.s, modified.value);
    return ok(command.generation === 'v1' && view.status === 'NEW' ? { ...view, status: 'PENDING_NEW' } : view);
  }

  cancelOrder(ref: AccountRef, orderRef: OrderRef): SimResult<{ readonly before: OrderView; readonly after: OrderView }> {
    const found = this.findOrder(ref, orderRef);
    if (!found.ok) return found;
    const before = orderMoment(this.s, found.value.order);
    const after = this.cancelOrderMoment(ref, orderRef);
    return after.ok ? ok({ before: orderViewOf(before), after: orderViewOf(after.value) }) : after;
  }

  cancelOrderMoment(ref: AccountRef, orderRef: OrderRef): SimResult<OrderMoment> {
    const found = this.findOrder(ref, orderRef);
    if (!found.ok) return found;
    const { order } = found.value;
    if (order.status === 'FILLED') return err(reject.orderFilled());
    if (!order.isOpen) return err(reject.orderCanceled());
    this.desk.finish(order, 'CANCELED');
    return ok(orderMoment(this.s, order));
  }

  cancelAllOrders(ref: AccountRef, symbols: readonly string[], side?: Side): SimResult<readonly OrderView[]> {
    const account = this.s.account(ref);
    if (account === undefined) return err(reject.userNotFound());
    for (const symbol of symbols) {
      const book = this.s.book(symbol, ref.category);
      if (!('instrument' in book)) return err(book);
    }
    const wanted = new Set(symbols);
    const canceled: OrderView[] = [];
    for (const order of [...account.openOrders]) {
      if ((wanted.size > 0 && !wanted.has(order.symbol)) || (side !== undefined && order.side !== side)) continue;
      this.desk.finish(order, 'CANCELED');
      canceled.push(orderView(this.s, order));
    }
    return ok(canceled);
  }

  getOrder(ref: AccountRef, orderRef: OrderRef): SimResult<OrderView> {
    const found = this.findOrder(ref, orderRef);
    return found.ok ? ok(orderView(this.s, found.value.order)) : found;
  }

  openOrders(ref: AccountRef, query: OrderListQuery): readonly OrderView[] {
    const account = this.s.account(ref);
    if (account === undefined) return [];
    const rows = [...account.openOrders].filter((o) => matchesList(o, query));
    return newestFirst(rows, query.limit).map((o) => orderView(this.s, o));
  }

  historyOrders(ref: AccountRef, query: OrderListQuery): readonly OrderView[] {
    const account = this.s.account(ref);
    if (account === undefined) return [];
    const start = query.startTime !== undefined && query.startTime > 0 ? query.startTime : this.s.time - HISTORY_WINDOW_MS;
    const rows: OrderRecord[] = [];
    for (const o of this.s.orders.values()) {
      if (o.accountId !== account.accountId || o.isOpen || o.time < start) continue;
      if (matchesList(o, { ...query, startTime: start })) rows.push(o);
    }
    return newestFirst(rows, query.limit).map((o) => orderView(this.s, o));
  }

  userTrades(ref: AccountRef, query: TradeListQuery): readonly UserTradeView[] {
    const account = this.s.account(ref);
    if (account === undefined) return [];
    const all = this.s.trades.get(account.accountId) ?? [];
    const out: UserTradeView[] = [];
    for (let i = all.length - 1; i >= 0 && out.length < query.limit; i--) {
      const t = all[i];
      if (t === undefined || t.symbol !== query.symbol) continue;
      if (query.fromId !== undefined && query.fromId !== '0' && BigInt(t.id) < BigInt(query.fromId)) continue;
      if (query.toId !== undefined && query.toId !== '0' && BigInt(t.id) > BigInt(query.toId)) continue;
      if (query.startTime !== undefined && query.startTime > 0 && t.time < query.startTime) continue;
      if (query.endTime !== undefined && query.endTime > 0 && t.time > query.endTime) continue;
      out.push(t);
    }
    return out;
  }

  /** The caller's futures account and a symbol's book, or the refusal (unknown user, symbol or category). */
  private accountWithBook(ref: AccountRef, symbol: string): SimResult<{ readonly account: FuturesAccount; readonly book: SymbolBook }> {
    const account = this.s.account(ref);
    if (account === undefined) return err(reject.userNotFound());
    const book = this.s.book(symbol, ref.category);
    return 'instrument' in book ? ok({ account, book }) : err(book);
  }

  private findOrder(ref: AccountRef, orderRef: OrderRef): SimResult<{ readonly account: FuturesAccount; readonly order: OrderRecord }> {
    const account = this.s.account(ref);
    if (account === undefined) return err(reject.userNotFound());
    let order: OrderRecord | undefined;
    if (orderRef.orderId !== undefined) {
      const o = this.s.orders.get(orderRef.orderId);
      if (o !== undefined && o.accountId === account.accountId) order = o;
    } else if (orderRef.clientOrderId !== undefined) {
      // The newest open one with this client id, else the newest in history.
      order = this.s.clientIds.find(account.accountId, orderRef.clientOrderId, (o) => account.openOrders.has(o));
    }
    return order === undefined ? err(reject.unknownOrder()) : ok({ account, order });
  }

  // ---------------------------------------------------------------- plan and TP/SL

  placePlanOrder(ref: AccountRef, command: PlacePlanCommand): SimResult<AlgoOrderView> {
    const account = this.s.account(ref);
    if (account === undefined) return err(reject.userNotFound());
    const placed = this.algos.placePlan(account, command);
    return placed.ok ? ok(this.algos.view(placed.value)) : placed;
  }

  modifyAlgoOrder(ref: AccountRef, orderRef: OrderRef, family: 'STOP' | 'STOP_PROFIT_LOSS', command: ModifyAlgoCommand): SimResult<AlgoOrderView> {
    const found = this.findRow(ref, orderRef);
    if (!found.ok) return found;
    const { row } = found.value;
    if ((family === 'STOP') !== (row.family === 'PLAN')) return err(reject.param('type'));
    const modified = this.algos.modify(row, command);
    return modified.ok ? ok(this.algos.view(modified.value)) : modified;
  }

  cancelAlgoOrder(ref: AccountRef, orderRef: OrderRef): SimResult<AlgoOrderView> {
    const found = this.findRow(ref, orderRef);
    if (!found.ok) return found;
    const { row } = found.value;
    if (!row.isOpen) return err(row.status === 'ORDER_CANCELED' ? reject.orderCanceled() : reject.orderFilled());
    this.algos.cancelRow(row);
    return ok(this.algos.view(row));
  }

  cancelAllAlgoOrders(ref: AccountRef, symbols: readonly string[], stopCategory: 'STOP' | 'STOP_PROFIT_LOSS'): SimResult<readonly AlgoOrderView[]> {
    const account = this.s.account(ref);
    if (account === undefined) return err(reject.userNotFound());
    for (const symbol of symbols) {
      const book = this.s.book(symbol, ref.category);
      if (!('instrument' in book)) return err(book);
    }
    const wanted = new Set(symbols);
    const out: AlgoOrderView[] = [];
    for (const row of [...this.algos.rows.values()]) {
      if (!row.isOpen || row.accountId !== account.accountId || (wanted.size > 0 && !wanted.has(row.symbol))) continue;
      if ((stopCategory === 'STOP') !== (row.family === 'PLAN')) continue;
      this.algos.cancelRow(row);
      out.push(this.algos.view(row));
    }
    return ok(out);
  }

  getAlgoOrder(ref: AccountRef, orderRef: OrderRef): SimResult<AlgoOrderView> {
    const found = this.findRow(ref, orderRef);
    return found.ok ? ok(this.algos.view(found.value.row)) : found;
  }

  openAlgoOrders(ref: AccountRef, query: AlgoListQuery): readonly AlgoOrderView[] {
    return this.listRows(ref, query, true);
  }

  historyAlgoOrders(ref: AccountRef, query: AlgoListQuery): readonly AlgoOrderView[] {
    return this.listRows(ref, query, false);
  }

  private listRows(ref: AccountRef, query: AlgoListQuery, open: boolean): readonly AlgoOrderView[] {
    const account = this.s.account(ref);
    if (account === undefined) return [];
    const start = open ? query.startTime : query.startTime !== undefined && query.startTime > 0 ? query.startTime : this.s.time - HISTORY_WINDOW_MS;
    const rows: AlgoRecord[] = [];
    for (const row of this.algos.rows.values()) {
      if (row.accountId !== account.accountId || row.isOpen !== open) continue;
      if ((query.stopCategory === 'STOP') !== (row.family === 'PLAN')) continue;
      if (matchesList(row, { ...query, ...(start === undefined ? {} : { startTime: start }) })) rows.push(row);
    }
    return newestFirst(rows, query.limit).map((r) => this.algos.view(r));
  }

  setPositionStops(ref: AccountRef, command: PositionStopsCommand): SimResult<readonly AlgoOrderView[]> {
    const account = this.s.account(ref);
    if (account === undefined) return err(reject.userNotFound());
    const out: AlgoOrderView[] = [];
    for (const [kind, stop] of [
      ['TAKE_PROFIT', command.takeProfit],
      ['STOP_LOSS', command.stopLoss],
    ] as const) {
      if (stop === undefined) continue;
      const placed = this.algos.setPositionStop(account, command.symbol, command.positionSide, kind, stop);
      if (!placed.ok) return placed;
      out.push(this.algos.view(placed.value));
    }
    return ok(out);
  }

  private findRow(ref: AccountRef, orderRef: OrderRef): SimResult<{ readonly account: FuturesAccount; readonly row: AlgoRecord }> {
    const account = this.s.account(ref);
    if (account === undefined) return err(reject.userNotFound());
    let row: AlgoRecord | undefined;
    if (orderRef.orderId !== undefined) {
      const r = this.algos.rows.get(orderRef.orderId);
      if (r !== undefined && r.accountId === account.accountId) row = r;
    } else if (orderRef.clientOrderId !== undefined) {
      for (const r of this.algos.rows.values()) if (r.accountId === account.accountId && r.clientOrderId === orderRef.clientOrderId && (row === undefined || r.isOpen)) row = r;
    }
    return row === undefined ? err(reject.unknownOrder()) : ok({ account, row });
  }

  // ---------------------------------------------------------------- positions, margin, leverage

  positions(ref: AccountRef, symbol?: string, side?: PositionSide): readonly PositionView[] {
    const account = this.s.account(ref);
    if (account === undefined) return [];
    const figures = accountFigures(this.s, account);
    const out: PositionView[] = [];
    for (const p of account.positions.values()) {
      if (p.lots === 0 || (symbol !== undefined && symbol !== '' && p.symbol !== symbol) || (side !== undefined && p.side !== side)) continue;
      out.push(positionView(this.s, account, p, figures));
    }
    return out.sort((a, b) => (a.symbol === b.symbol ? a.side.localeCompare(b.side) : a.symbol.localeCompare(b.symbol)));
  }

  /**
   * What an equity figure needs, as the views show it: the wallet balance (`futuresBalance().balance`)
   * and each open position's unrealized PnL (`positions()[i].unrealizedPnl`, in the same order), without
   * the rest of those views (margins, risk rates, liquidation prices): a backtest samples it every minute.
   */
  equityParts(ref: AccountRef): EquityParts {
    const account = this.s.account(ref);
    if (account === undefined) throw new RangeError(`unknown user ${ref.userId}`);
    let flat = true;
    for (const p of account.positions.values()) if (p.lots !== 0) flat = false;
    // A flat account's parts are its wallet's text alone: the same answer while the (immutable) wallet decimal stays.
    const known = flat ? this.flatParts.get(account) : undefined;
    if (known !== undefined && known.wallet === account.wallet) return known.parts;
    const open = [...account.positions.values()].filter((p) => p.lots !== 0).sort((a, b) => (a.symbol === b.symbol ? a.side.localeCompare(b.side) : a.symbol.localeCompare(b.symbol)));
    const parts: EquityParts = { balance: money(account.wallet), unrealizedPnl: open.map((p) => money(mathOf(this.s, p).unrealizedPnl)) };
    if (flat) this.flatParts.set(account, { wallet: account.wallet, parts });
    return parts;
  }

  futuresBalance(ref: AccountRef): FuturesBalanceView {
    const account = this.s.account(ref);
    if (account === undefined) throw new RangeError(`unknown user ${ref.userId}`);
    return { ...balanceView(this.s, account), coupon: money(this.voucherBook.coupon(ref.userId, ref.category, this.s.time)) };
  }

  futuresBalanceFigures(ref: AccountRef): () => BalanceFigures {
    const account = this.s.account(ref);
    if (account === undefined) throw new RangeError(`unknown user ${ref.userId}`);
    return balanceFiguresLater(accountFiguresLater(this.s, account));
  }

  symbolSettings(ref: AccountRef, symbol?: string): readonly SymbolSettingsView[] {
    const account = this.s.account(ref);
    if (account === undefined) return [];
    const symbols = symbol !== undefined && symbol !== '' ? [symbol] : this.instruments.filter((i) => i.category === ref.category).map((i) => i.symbol);
    return symbols.filter((sym) => this.s.books.has(sym)).map((sym) => ({ symbol: sym, ...account.settingsOf(sym) }));
  }

  setLeverage(ref: AccountRef, symbol: string, leverage: number): SimResult<SymbolSettingsView> {
    const found = this.accountWithBook(ref, symbol);
    if (!found.ok) return found;
    const { account, book } = found.value;
    if (!Number.isInteger(leverage) || leverage < 1) return err(reject.param('leverage'));
    const settings = account.settingsOf(symbol);
    const longP = account.existingPosition(symbol, 'LONG');
    const shortP = account.existingPosition(symbol, 'SHORT');
    const heldLots = Math.max(longP?.lots ?? 0, shortP?.lots ?? 0);
    const tier = book.tiers.ofLots(heldLots).tier;
    const max = maxLeverageOf(tier);
    if (leverage > max) return err(reject.leverageTooHigh(max));
    const positions = [longP, shortP].filter((p) => p !== undefined && p.lots > 0);
    if (settings.marginType === 'ISOLATED' && leverage < settings.leverage && positions.length > 0) return err(reject.leverageIsolatedLower());
    // Cross positions re-margin at the new leverage; more margin must be available.
    if (settings.marginType === 'CROSS' && positions.length > 0) {
      let extra = dec(0);
      for (const p of positions) if (p !== undefined) extra = extra.add(p.margin.mul(p.leverage).div(leverage).sub(p.margin));
      if (extra.gt(0) && accountFigures(this.s, account).available.lt(extra)) return err(reject.leverageMargin());
      for (const p of positions) {
        if (p === undefined) continue;
        p.margin = p.margin.mul(p.leverage).div(leverage);
        p.leverage = leverage;
      }
    } else for (const p of positions) if (p !== undefined) p.leverage = leverage;
    settings.leverage = leverage;
    account.touch();
    for (const p of positions) if (p !== undefined) this.desk.emitPosition(account, p);
    return ok({ symbol, ...settings });
  }

  setMarginType(ref: AccountRef, symbol: string, marginType: MarginType): SimResult<SymbolSettingsView> {
    const found = this.accountWithBook(ref, symbol);
    if (!found.ok) return found;
    const { account } = found.value;
    const settings = account.settingsOf(symbol);
    if (settings.marginType !== marginType) {
      const busy = [...account.openOrders].some((o) => o.symbol === symbol) || (account.existingPosition(symbol, 'LONG')?.lots ?? 0) > 0 || (account.existingPosition(symbol, 'SHORT')?.lots ?? 0) > 0;
      if (busy) return err(reject.marginTypeBusy());
      settings.marginType = marginType;
      for (const side of ['LONG', 'SHORT'] as const) {
        const p = account.existingPosition(symbol, side);
        if (p !== undefined) p.marginType = marginType;
      }
    }
    return ok({ symbol, ...settings });
  }

  adjustPositionMargin(ref: AccountRef, symbol: string, side: PositionSide, amount: Decimal): SimResult<PositionView> {
    const found = this.accountWithBook(ref, symbol);
    if (!found.ok) return found;
    const { account, book } = found.value;
    const p = account.existingPosition(symbol, side);
    if (p === undefined || p.lots === 0) return err(reject.noPosition(side));
    if (p.marginType !== 'ISOLATED') return err(reject.crossMarginAdjust());
    if (amount.isZero()) return err(reject.param('amount'));
    if (amount.gt(0)) {
      if (accountFigures(this.s, account).available.lt(amount)) return err(reject.insufficientBalance());
    } else {
      const notional = p.avgPrice.mul(book.qty.toText(p.lots)).mul(book.instrument.contractMultiplier);
      if (p.margin.add(amount).lt(notional.div(p.leverage))) return err(reject.marginReduce());
    }
    p.margin = p.margin.add(amount);
    account.touch();
    this.desk.emitPosition(account, p);
    this.desk.emitBalance(account);
    return ok(positionView(this.s, account, p));
  }

  historyPositions(ref: AccountRef, query: ClosedPositionQuery): readonly ClosedPositionView[] {
    const account = this.s.account(ref);
    return account === undefined ? [] : this.closedPositions.list(account.accountId, query);
  }

  setAutoAddMargin(ref: AccountRef, symbol: string, side: PositionSide, enabled: boolean): SimResult<{ readonly symbol: string; readonly side: PositionSide; readonly enabled: boolean }> {
    const found = this.accountWithBook(ref, symbol);
    if (!found.ok) return found;
    const { account } = found.value;
    const key = `${symbol}|${side}`;
    if (enabled) account.autoAddMargin.add(key);
    else account.autoAddMargin.delete(key);
    account.touch();
    return ok({ symbol, side, enabled });
  }

  flashClose(ref: AccountRef, symbol: string, side: PositionSide): SimResult<OrderView> {
    const found = this.accountWithBook(ref, symbol);
    if (!found.ok) return found;
    const { account, book } = found.value;
    const p = account.existingPosition(symbol, side);
    if (p === undefined || p.lots === 0) return err(reject.noPosition(side));
    for (const o of [...account.openOrders]) if (o.symbol === symbol && o.positionSide === side && o.isClose) this.desk.finish(o, 'CANCELED');
    const placed = this.desk.submit(account, {
      symbol,
      side: side === 'LONG' ? 'SELL' : 'BUY',
      positionSide: side,
      type: 'MARKET',
      quantity: dec(book.qty.toText(p.lots)),
      priceType: 'MARKET',
      timeInForce: 'IOC',
      clientOrderId: this.s.ids.clientOrder.next(),
      forced: true,
    });
    return placed.ok ? ok(orderView(this.s, placed.value)) : placed;
  }

  reversePosition(ref: AccountRef, symbol: string, side: PositionSide): SimResult<readonly OrderView[]> {
    const found = this.accountWithBook(ref, symbol);
    if (!found.ok) return found;
    const { account, book } = found.value;
    const p = account.existingPosition(symbol, side);
    if (p === undefined || p.lots === 0) return err(reject.noPosition(side));
    const lots = p.lots;
    const closed = this.flashClose(ref, symbol, side);
    if (!closed.ok) return closed;
    const other: PositionSide = side === 'LONG' ? 'SHORT' : 'LONG';
    const opened = this.desk.submit(account, {
      symbol,
      side: other === 'LONG' ? 'BUY' : 'SELL',
      positionSide: other,
      type: 'MARKET',
      quantity: dec(book.qty.toText(lots)),
      priceType: 'MARKET',
      timeInForce: 'IOC',
      clientOrderId: this.s.ids.clientOrder.next(),
    });
    return opened.ok ? ok([closed.value, orderView(this.s, opened.value)]) : opened;
  }

  commissionRates(symbol: string): SimResult<{ readonly maker: string; readonly taker: string }> {
    const book = this.s.books.get(symbol);
    if (book === undefined) return err(reject.badSymbol(symbol));
    return ok({ maker: book.instrument.makerFeeRate, taker: book.instrument.takerFeeRate });
  }

  todayPnl(ref: AccountRef): { readonly dayProfit: string; readonly dayProfitRate: string } {
    const account = this.s.account(ref);
    if (account === undefined) return { dayProfit: '0', dayProfitRate: '0' };
    const day = Math.floor(this.s.time / DAY_MS);
    if (account.dayStart.day !== day) account.dayStart = { day, wallet: account.wallet, realized: account.realizedTotal };
    const profit = account.realizedTotal.sub(account.dayStart.realized);
    const rate = account.dayStart.wallet.isZero() ? dec(0) : profit.div(account.dayStart.wallet);
    return { dayProfit: money(profit), dayProfitRate: money(rate) };
  }

  // ---------------------------------------------------------------- users and funds

  userExists(userId: string): boolean {
    return this.s.users.has(userId);
  }

  subAccounts(parentUserId: string, filter: { readonly userId?: string; readonly email?: string }): SimResult<readonly SubAccountView[]> {
    if (!this.s.users.has(parentUserId)) return err(reject.userNotFound());
    const out: SubAccountView[] = [];
    for (const u of this.s.users.values()) {
      if (u.parentUserId !== parentUserId) continue;
      if (filter.userId !== undefined && filter.userId !== '' && u.userId !== filter.userId) continue;
      if (filter.email !== undefined && filter.email !== '' && u.email !== filter.email) continue;
      out.push({ userId: u.userId, email: u.email, remark: u.remark, accounts: u.accounts().filter((a) => a.accountType !== 'COPY_TRADING') });
    }
    return ok(out);
  }

  accounts(userId: string): readonly AccountView[] {
    return this.s.users.get(userId)?.accounts() ?? [];
  }

  spotBalances(userId: string): readonly SpotBalanceView[] {
    const user = this.s.users.get(userId);
    if (user === undefined) return [];
    return [...user.spot.entries()].map(([coin, total]) => ({ coin, total: money(total), free: money(total), locked: '0' }));
  }

  /** The copy-trading account balance of a user, per coin (the follower's funds). */
  copyTradingBalances(userId: string): readonly SpotBalanceView[] {
    const user = this.s.users.get(userId);
    if (user === undefined) return [];
    return [...user.copyTrading.entries()].map(([coin, total]) => ({ coin, total: money(total), free: money(total), locked: '0' }));
  }

  transfer(callerUserId: string, command: TransferCommand): SimResult<{ readonly replayed: boolean }> {
    return this.transfers.transfer(callerUserId, command);
  }

  depositAddress(userId: string, coin: string, chainType: string): SimResult<DepositAddressView> {
    return this.wallet.depositAddress(userId, coin, chainType);
  }

  withdraw(userId: string, command: WithdrawCommand): SimResult<WithdrawalView> {
    return this.wallet.withdraw(userId, command);
  }

  withdrawals(userId: string, query: WalletHistoryQuery): readonly WithdrawalView[] {
    return this.wallet.withdrawals(userId, query);
  }

  deposits(userId: string, query: WalletHistoryQuery): readonly DepositView[] {
    return this.wallet.deposits(userId, query);
  }

  vouchers(userId: string, token: string, status?: VoucherStatus): readonly VoucherView[] {
    return this.voucherBook.list(userId, token, status, this.s.time);
  }

  receiveVoucher(userId: string, relationId: string): SimResult<VoucherView> {
    return this.voucherBook.receive(userId, relationId, this.s.time, (token) => this.tradedVolume(userId, token));
  }

  /** Notional the user's contract account of `token` traded in its retained trade history. */
  private tradedVolume(userId: string, token: string): Decimal {
    const account = token === 'USDT' || token === 'USDC' ? this.s.account({ userId, category: token }) : undefined;
    if (account === undefined) return dec(0);
    let sum = dec(0);
    for (const t of this.s.trades.get(account.accountId) ?? []) {
      const multiplier = this.s.books.get(t.symbol)?.instrument.contractMultiplier ?? '0';
      sum = sum.add(dec(t.price).mul(t.qty).mul(multiplier));
    }
    return sum;
  }

  balanceFlows(query: FlowQuery): readonly BalanceFlowView[] {
    return this.s.flows.query(query);
  }

  deposit(target: AccountRef | { readonly userId: string; readonly accountType: 'MAIN' | 'COPY_TRADING' }, coin: string, amount: Decimal): void {
    this.transfers.deposit(target, coin, amount);
  }
}

function matchesList(o: { readonly symbol: string; readonly orderId: string; readonly time: number }, q: OrderListQuery): boolean {
  if (q.symbol !== undefined && q.symbol !== '' && o.symbol !== q.symbol) return false;
  if (q.beforeOrderId !== undefined && q.beforeOrderId !== '' && q.beforeOrderId !== '0' && BigInt(o.orderId) >= BigInt(q.beforeOrderId)) return false;
  if (q.startTime !== undefined && q.startTime > 0 && o.time < q.startTime) return false;
  if (q.endTime !== undefined && q.endTime > 0 && o.time > q.endTime) return false;
  return true;
}

function newestFirst<T extends { readonly orderId: string }>(rows: T[], limit: number): T[] {
  return rows.sort((a, b) => (BigInt(b.orderId) > BigInt(a.orderId) ? 1 : -1)).slice(0, limit);
}

export type { SimReject };
