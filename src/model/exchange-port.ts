import type { Result } from '../core/result.js';
import type { Balance, FundingPayment, Position } from './account.js';
import type {
  CancelAlgoCommand,
  CancelAllCommand,
  CancelOrderCommand,
  ModifyAlgoCommand,
  ModifyOrderCommand,
  PlaceAlgoCommand,
  PlaceOrderCommand,
} from './commands.js';
import type { Instrument } from './instrument.js';
import type { AlgoOrderSnapshot, Fill, OrderSnapshot } from './orders.js';

/**
 * Why an exchange call did not produce a value (an expected outcome, never thrown).
 * - `rejected`: the exchange refused it (venueCode holds its code); the request had no effect.
 * - `unknown`: timeout, network error, 5xx: it may or may not have taken effect. Settle by query.
 * - `not-found`: the order does not exist (a query or cancel of an unknown id).
 * - `throttled`: rate limited or banned; nothing was done; retry after `retryAt`.
 * - `invalid`: refused locally before sending (a bug in the caller, or a malformed reply).
 */
export type ExchangeFailureKind = 'rejected' | 'unknown' | 'not-found' | 'throttled' | 'invalid';

export interface ExchangeFailure {
  readonly kind: ExchangeFailureKind;
  /** Stable code: the exchange's code as text ("-1131") or the kind. */
  readonly code: string;
  readonly message: string;
  readonly retryable: boolean;
  readonly retryAt?: number;
}

export type PortResult<T> = Promise<Result<T, ExchangeFailure>>;

/** Everything reconciliation compares with the journal and the cache, fetched at one moment. */
export interface AccountSnapshot {
  readonly openOrders: readonly OrderSnapshot[];
  readonly openAlgoOrders: readonly AlgoOrderSnapshot[];
  readonly positions: readonly Position[];
  readonly balances: readonly Balance[];
  /** Funding payments of the last day (balance flow 32), for the day's PnL: the user stream does not push them. */
  readonly funding?: readonly FundingPayment[];
  /** Exchange time (the server's clock) the fetch started: stream events newer than this still apply on top. */
  readonly fetchedAt: number;
}

/** Plan rows (STOP) or TP/SL rows (STOP_PROFIT_LOSS): the exchange lists each family on its own. */
export type AlgoFamily = 'plan' | 'tpsl';

/** One page of finished plan or TP/SL rows, newest first; `next` is the cursor of the following page, absent on the last. */
export interface AlgoHistoryPage {
  readonly rows: readonly AlgoOrderSnapshot[];
  readonly next?: string;
}

/**
 * Hooks into one exchange call, for latency figures. A port that writes requests to a socket calls
 * `written` once the signed request has been handed to it; an in-process port never does.
 */
export interface CallTrace {
  /** The signed request is being handed to the HTTP client. */
  readonly sending?: () => void;
  /** The HTTP client handed it to the socket. */
  readonly written?: () => void;
}

/**
 * The kernel's only road to an exchange. Implemented by the live client (real exchange or `stratd sim`
 * over loopback) and by the in-process simulated exchange (backtests). Quantities are contracts.
 */
export interface ExchangePort {
  loadInstruments(): PortResult<readonly Instrument[]>;
  placeOrder(command: PlaceOrderCommand, trace?: CallTrace): PortResult<OrderSnapshot>;
  /** Up to 10 orders; each leg succeeds or fails on its own. */
  placeOrders(commands: readonly PlaceOrderCommand[]): PortResult<ReadonlyArray<Result<OrderSnapshot, ExchangeFailure>>>;
  modifyOrder(command: ModifyOrderCommand, trace?: CallTrace): PortResult<OrderSnapshot>;
  cancelOrder(command: CancelOrderCommand, trace?: CallTrace): PortResult<OrderSnapshot>;
  cancelAll(command: CancelAllCommand, trace?: CallTrace): PortResult<void>;
  placeAlgo(command: PlaceAlgoCommand, trace?: CallTrace): PortResult<AlgoOrderSnapshot>;
  modifyAlgo(command: ModifyAlgoCommand, trace?: CallTrace): PortResult<AlgoOrderSnapshot>;
  cancelAlgo(command: CancelAlgoCommand, trace?: CallTrace): PortResult<AlgoOrderSnapshot>;
  /** The order with this client order id; `undefined` when the exchange does not know it. */
  queryOrder(symbol: string, clientOrderId: string): PortResult<OrderSnapshot | undefined>;
  queryAlgo(symbol: string, clientOrderId: string): PortResult<AlgoOrderSnapshot | undefined>;
  /** Open orders, open plan and TP/SL orders, positions and balances of the traded categories. */
  fetchAccount(symbols: readonly string[]): PortResult<AccountSnapshot>;
  /** The account's fills on a symbol from `fromTime` (inclusive), oldest first. */
  fetchFills(symbol: string, fromTime: number): PortResult<readonly Fill[]>;
  /**
   * One page of a symbol's finished plan or TP/SL rows (the exchange's history window), newest first,
   * below the exchange id `before` when given. A triggered row names the order it created (`executedOrderId`).
   */
  fetchAlgoHistory(symbol: string, family: AlgoFamily, before?: string): PortResult<AlgoHistoryPage>;
  /** A regular order by its exchange id (one a plan or TP/SL row created); `undefined` when the exchange does not know it. */
  queryOrderById(symbol: string, orderId: string): PortResult<OrderSnapshot | undefined>;
}
