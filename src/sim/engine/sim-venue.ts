import type { Decimal } from '../../core/decimal.js';
import type { OrderMoment } from './account-moments.js';
import type { MarketEvent } from '../market-stream/events.js';
import type { SimInstrument } from '../market-stream/instruments.js';
import type { VoucherStatus, VoucherView } from '../wallet/voucher-book.js';
import type { ClosedPositionQuery, ClosedPositionView } from './position-history.js';
import type { BookPrices } from './symbol-book.js';
import type { BalanceFigures } from './views.js';
import type { DepositAddressView, DepositView, WalletHistoryQuery, WithdrawalView, WithdrawCommand } from '../wallet/wallet-desk.js';
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
  SimResult,
  SpotBalanceView,
  SubAccountView,
  SymbolSettingsView,
  TradeListQuery,
  TransferCommand,
  UserTradeView,
} from './types.js';

/**
 * What the simulated exchange does, independent of any wire format: the server's routes and the
 * backtest's ExchangePort both call this. Every method acts at the engine clock's current time; call
 * `advanceTo` first to bring the market up to that time. Expected refusals are `SimResult` errors with
 * the exchange's codes; only broken invariants throw.
 */
export interface SimVenue {
  readonly instruments: readonly SimInstrument[];
  instrument(symbol: string): SimInstrument | undefined;

  /** Consumes market events up to and including `time`, matching, triggering and settling as it goes. */
  advanceTo(time: number): void;
  /** The engine's current time (the last `advanceTo`). */
  now(): number;
  onAccountEvent(listener: (event: AccountEvent) => void): () => void;
  onMarketEvent(listener: (event: MarketEvent, book: BookPrices | undefined) => void): () => void;

  /** Latest trade and mark prices as decimal text, or undefined before the first one. */
  lastPrice(symbol: string): string | undefined;
  markPrice(symbol: string): string | undefined;

  // ---- regular orders (v1 and v2 share one book of records)
  placeOrder(account: AccountRef, command: PlaceOrderCommand): SimResult<OrderView>;
  /** `placeOrder`'s answer as the order's moment: an in-process caller maps it without the view's text. */
  placeOrderMoment(account: AccountRef, command: PlaceOrderCommand): SimResult<OrderMoment>;
  modifyOrder(account: AccountRef, ref: OrderRef, command: ModifyOrderCommand): SimResult<OrderView>;
  /** Cancels one open order; answers the canceled snapshot (v1 routes render the pre-cancel one from `before`). */
  cancelOrder(account: AccountRef, ref: OrderRef): SimResult<{ readonly before: OrderView; readonly after: OrderView }>;
  /** `cancelOrder`'s `after` as the order's moment (see `placeOrderMoment`). */
  cancelOrderMoment(account: AccountRef, ref: OrderRef): SimResult<OrderMoment>;
  /** Cancels every open order of the symbols, optionally one side only. */
  cancelAllOrders(account: AccountRef, symbols: readonly string[], side?: Side): SimResult<readonly OrderView[]>;
  getOrder(account: AccountRef, ref: OrderRef): SimResult<OrderView>;
  openOrders(account: AccountRef, query: OrderListQuery): readonly OrderView[];
  historyOrders(account: AccountRef, query: OrderListQuery): readonly OrderView[];
  userTrades(account: AccountRef, query: TradeListQuery): readonly UserTradeView[];

  // ---- plan and TP/SL orders
  placePlanOrder(account: AccountRef, command: PlacePlanCommand): SimResult<AlgoOrderView>;
  modifyAlgoOrder(account: AccountRef, ref: OrderRef, family: 'STOP' | 'STOP_PROFIT_LOSS', command: ModifyAlgoCommand): SimResult<AlgoOrderView>;
  cancelAlgoOrder(account: AccountRef, ref: OrderRef): SimResult<AlgoOrderView>;
  cancelAllAlgoOrders(account: AccountRef, symbols: readonly string[], stopCategory: 'STOP' | 'STOP_PROFIT_LOSS'): SimResult<readonly AlgoOrderView[]>;
  getAlgoOrder(account: AccountRef, ref: OrderRef): SimResult<AlgoOrderView>;
  openAlgoOrders(account: AccountRef, query: AlgoListQuery): readonly AlgoOrderView[];
  historyAlgoOrders(account: AccountRef, query: AlgoListQuery): readonly AlgoOrderView[];
  setPositionStops(account: AccountRef, command: PositionStopsCommand): SimResult<readonly AlgoOrderView[]>;

  // ---- positions, margin, leverage
  positions(account: AccountRef, symbol?: string, side?: PositionSide): readonly PositionView[];
  futuresBalance(account: AccountRef): FuturesBalanceView;
  /**
   * `futuresBalance`'s wallet, available, margins and unrealized PnL as the decimals its text gives (no
   * coupon), of this moment, made when first asked: the in-process user stream's balance.
   */
  futuresBalanceFigures(account: AccountRef): () => BalanceFigures;
  symbolSettings(account: AccountRef, symbol?: string): readonly SymbolSettingsView[];
  setLeverage(account: AccountRef, symbol: string, leverage: number): SimResult<SymbolSettingsView>;
  setMarginType(account: AccountRef, symbol: string, marginType: MarginType): SimResult<SymbolSettingsView>;
  /** Adds (positive) or removes (negative) isolated margin. */
  adjustPositionMargin(account: AccountRef, symbol: string, side: PositionSide, amount: Decimal): SimResult<PositionView>;
  /** Positions that went flat (one row per life), newest first. */
  historyPositions(account: AccountRef, query: ClosedPositionQuery): readonly ClosedPositionView[];
  /** The isolated auto-add-margin switch of one position side: margin tops up from the account before liquidation. */
  setAutoAddMargin(account: AccountRef, symbol: string, side: PositionSide, enabled: boolean): SimResult<{ readonly symbol: string; readonly side: PositionSide; readonly enabled: boolean }>;
  /** Closes the whole position at market. */
  flashClose(account: AccountRef, symbol: string, side: PositionSide): SimResult<OrderView>;
  /** Closes the position at market and opens the same size on the other side. */
  reversePosition(account: AccountRef, symbol: string, side: PositionSide): SimResult<readonly OrderView[]>;
  commissionRates(symbol: string): SimResult<{ readonly maker: string; readonly taker: string }>;
  /** Realized PnL since 00:00 UTC and its ratio to the day's opening balance. */
  todayPnl(account: AccountRef): { readonly dayProfit: string; readonly dayProfitRate: string };

  // ---- users, accounts, funds
  userExists(userId: string): boolean;
  subAccounts(parentUserId: string, filter: { readonly userId?: string; readonly email?: string }): SimResult<readonly SubAccountView[]>;
  accounts(userId: string): readonly AccountView[];
  spotBalances(userId: string): readonly SpotBalanceView[];
  /** Applies one of the six permitted moves for `callerUserId` (document 000). */
  transfer(callerUserId: string, command: TransferCommand): SimResult<{ readonly replayed: boolean }>;
  balanceFlows(query: FlowQuery): readonly BalanceFlowView[];
  /** The user's deposit address of a coin on a chain (stable per user). */
  depositAddress(userId: string, coin: string, chainType: string): SimResult<DepositAddressView>;
  /** Withdraws from the spot account within the chain's limits; the same clientOrderId answers the first withdrawal. */
  withdraw(userId: string, command: WithdrawCommand): SimResult<WithdrawalView>;
  /** The user's withdrawals and the deposits credited to it, newest first. */
  withdrawals(userId: string, query: WalletHistoryQuery): readonly WithdrawalView[];
  deposits(userId: string, query: WalletHistoryQuery): readonly DepositView[];
  /** Trial vouchers of a user in `token`, optionally of one status. */
  vouchers(userId: string, token: string, status?: VoucherStatus): readonly VoucherView[];
  receiveVoucher(userId: string, relationId: string): SimResult<VoucherView>;
  /** Credits a futures account directly (sim seeding and admin use; recorded as a transfer flow). */
  deposit(account: AccountRef | { readonly userId: string; readonly accountType: 'MAIN' | 'COPY_TRADING' }, coin: Category | string, amount: Decimal): void;
}

export type { Category };
