import type { Decimal } from '../../core/decimal.js';
import type { Result } from '../../core/result.js';

/**
 * The simulated exchange engine's public vocabulary: commands in, snapshots ("views") and account
 * events out. Views carry exact decimal text and string ids so the wire renderers (v1 and v2 rows,
 * user-stream frames) only choose names and shapes. Quantities are CONTRACTS (API-NOTES §6.2).
 */

export type Category = 'USDT' | 'USDC';
export type Side = 'BUY' | 'SELL';
export type PositionSide = 'LONG' | 'SHORT';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'POST_ONLY';
export type MarginType = 'CROSS' | 'ISOLATED';
export type TriggerBy = 'CONTRACT_PRICE' | 'MARK_PRICE';
/** INPUT: the given limit price. MARKET: v1 market order, latest price ±5% as a protective limit. */
export type PriceType = 'INPUT' | 'MARKET';
export type OrderStatus = 'PENDING_NEW' | 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED';
export type PlanStatus = 'ORDER_NEW' | 'ORDER_FILLED' | 'ORDER_CANCELED' | 'ORDER_REJECTED' | 'ORDER_FAILED' | 'ORDER_NOT_EFFECTIVE';
export type StopOrderType = 'TAKE_PROFIT' | 'STOP_LOSS';
export type StopType = 'FIXED_STOP' | 'TRAILING_STOP';
export type FallbackType = 'RATE' | 'PRICE';
/** Account families of the spec's transfer endpoint (document 000). */
export type AccountType = 'MAIN' | 'FUTURES' | 'COPY_TRADING';

/** A refusal with the exchange's code and message (API-NOTES §3); HTTP status is the server's business. */
export interface SimReject {
  readonly code: number;
  readonly msg: string;
}
export type SimResult<T> = Result<T, SimReject>;

/** Which futures account a call acts on: a user's USDT-M or USDC-M contract account. */
export interface AccountRef {
  readonly userId: string;
  readonly category: Category;
}

/** Identifies an order by exchange id or client id; `orderId` wins when both are given. */
export interface OrderRef {
  readonly orderId?: string;
  readonly clientOrderId?: string;
}

/** A take-profit or stop-loss attached to a new order (fires on the position the order opens). */
export interface AttachedStop {
  readonly triggerPrice: Decimal;
  readonly triggerBy: TriggerBy;
  readonly orderType: 'MARKET' | 'LIMIT';
  /** Limit price after the trigger; required when orderType is LIMIT. */
  readonly limitPrice?: Decimal;
}

export interface PlaceOrderCommand {
  readonly symbol: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  /** LIMIT (rests or fills at `price` or better) or MARKET (sweeps the book within the price band). */
  readonly type: 'LIMIT' | 'MARKET';
  /** Contracts; zero or absent means "use valueQuantity". */
  readonly quantity?: Decimal;
  /** Quote-coin notional, turned into contracts at the order price (or the last price for market orders). */
  readonly valueQuantity?: Decimal;
  readonly price?: Decimal;
  readonly priceType: PriceType;
  readonly timeInForce: TimeInForce;
  readonly clientOrderId: string;
  readonly takeProfit?: AttachedStop;
  readonly stopLoss?: AttachedStop;
  /** v1 create answers PENDING_NEW, v2 answers NEW (API-NOTES §5.7). */
  readonly generation: 'v1' | 'v2';
}

/** A resolved modification of an open LIMIT order (the request rules are applied before this). */
export interface ModifyOrderCommand {
  /** New unfilled quantity in contracts. */
  readonly quantity: Decimal;
  readonly price: Decimal;
  readonly priceType: PriceType;
  /** The order's client id from now on; absent: the exchange generates one (document 000, "generated if omitted"). */
  readonly newClientOrderId?: string;
  readonly generation: 'v1' | 'v2';
}

export interface PlacePlanCommand {
  readonly symbol: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  /** STOP: limit order at `price` after the trigger; STOP_MARKET: market order after the trigger. */
  readonly type: 'STOP' | 'STOP_MARKET';
  readonly stopPrice: Decimal;
  readonly triggerBy: TriggerBy;
  readonly quantity?: Decimal;
  readonly valueQuantity?: Decimal;
  readonly price?: Decimal;
  readonly timeInForce: TimeInForce;
  readonly clientOrderId: string;
  readonly takeProfit?: AttachedStop;
  readonly stopLoss?: AttachedStop;
}

export interface TrailingParams {
  /** Price at which tracking starts; zero means "active at once". */
  readonly activePrice: Decimal;
  readonly fallbackType: FallbackType;
  /** A ratio (RATE, 0.01 = 1%) or a price distance (PRICE). */
  readonly fallbackQuantity: Decimal;
}

/** A resolved modification of an ORDER_NEW plan or TP/SL row. */
export interface ModifyAlgoCommand {
  /** Contracts; for fixed TP/SL zero means the whole position. */
  readonly quantity: Decimal;
  /** Limit price after trigger; zero means market. */
  readonly price: Decimal;
  readonly stopPrice: Decimal;
  readonly triggerBy: TriggerBy;
  /** The row's client id from now on; absent: generated (document 000), unless `keepClientOrderId`. */
  readonly newClientOrderId?: string;
  /** v1 update of a TP/SL row: newClientOrderId is ignored and the system-generated id stays (document 000). */
  readonly keepClientOrderId?: boolean;
  /** TP/SL rows only: switch between fixed and trailing. */
  readonly stopType?: StopType;
  readonly trailing?: TrailingParams;
}

/** TP/SL on a whole position (POST /api/v1/futures/position/trading-stop); absent legs stay as they are. */
export interface PositionStopsCommand {
  readonly symbol: string;
  readonly positionSide: PositionSide;
  readonly takeProfit?: AttachedStop;
  readonly stopLoss?: AttachedStop;
}

export interface TransferCommand {
  readonly fromUserId: string;
  readonly toUserId: string;
  readonly fromAccountType: AccountType;
  readonly toAccountType: AccountType;
  readonly coin: string;
  readonly quantity: Decimal;
  /** Same id again: a no-op that answers success (document 000, API-NOTES -1300). */
  readonly transferId?: string;
}

// ---------------------------------------------------------------- views

export interface OrderView {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly userId: string;
  readonly category: Category;
  readonly symbol: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  /** True when the order reduces a position (SELL LONG, BUY SHORT): the v1 `_CLOSE` sides and `C` flag. */
  readonly isClose: boolean;
  readonly type: 'LIMIT' | 'MARKET';
  /** The limit price; for market orders the protective price (v1 shows it, API-NOTES §5.7). */
  readonly price: string;
  readonly priceType: PriceType;
  readonly origQty: string;
  readonly executedQty: string;
  readonly avgPrice: string;
  /** Sum of price × quantity × multiplier over fills (user stream `Z`). */
  readonly cumQuote: string;
  readonly marginLocked: string;
  readonly leverage: string;
  readonly marginType: MarginType;
  readonly timeInForce: TimeInForce;
  readonly status: OrderStatus;
  readonly contractMultiplier: string;
  readonly commission: string;
  readonly commissionAsset: string;
  readonly realizedPnl: string;
  readonly time: number;
  readonly updateTime: number;
  /** Set when a plan or TP/SL row created this order. */
  readonly sourceAlgoOrderId?: string;
}

export interface TpSlView {
  readonly stopOrderType: StopOrderType;
  readonly stopType: StopType;
  /** v1 STOP_LONG_PROFIT, STOP_LONG_LOSS, STOP_SHORT_PROFIT, STOP_SHORT_LOSS. */
  readonly planOrderType: string;
  /** Quantity 0 on a fixed TP/SL means the whole position. */
  readonly wholePosition: boolean;
  readonly activePrice: string;
  readonly fallbackType?: FallbackType;
  readonly fallbackQuantity: string;
  /** 0 not activated, 1 activated (trailing). */
  readonly activeStatus: 0 | 1;
}

export interface AlgoOrderView {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly userId: string;
  readonly category: Category;
  readonly symbol: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly isClose: boolean;
  /** STOP/STOP_MARKET: plan orders; STOP_PROFIT_LOSS(_MARKET): TP/SL, limit or market after trigger. */
  readonly type: 'STOP' | 'STOP_MARKET' | 'STOP_PROFIT_LOSS' | 'STOP_PROFIT_LOSS_MARKET';
  /** Limit price after trigger; '0' for market. */
  readonly price: string;
  readonly origQty: string;
  readonly stopPrice: string;
  readonly triggerBy: TriggerBy;
  readonly timeInForce: TimeInForce;
  readonly status: PlanStatus;
  readonly leverage: string;
  readonly marginLocked: string;
  readonly marginType: MarginType;
  readonly contractMultiplier: string;
  /** Id of the order created on trigger; '0' until then. */
  readonly executedOrderId: string;
  readonly executedPrice: string;
  readonly executedQty: string;
  /** The regular order this TP/SL was attached to, or '0'. */
  readonly parentOrderId: string;
  readonly tpsl?: TpSlView;
  readonly time: number;
  readonly updateTime: number;
}

export interface PositionView {
  readonly accountId: string;
  readonly userId: string;
  readonly category: Category;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly marginType: MarginType;
  readonly leverage: string;
  /** Contracts held, and contracts not yet locked by open closing orders. */
  readonly position: string;
  readonly available: string;
  readonly avgPrice: string;
  readonly markPrice: string;
  readonly lastPrice: string;
  readonly positionValue: string;
  readonly margin: string;
  readonly maintMargin: string;
  readonly liquidationPrice: string;
  readonly unrealizedPnl: string;
  readonly realizedPnl: string;
  readonly profitRate: string;
  /** Maintenance margin over margin balance, in percent; 100 liquidates. */
  readonly riskRate: string;
  readonly maxNotionalValue: string;
}

export interface FuturesBalanceView {
  readonly accountId: string;
  readonly coin: Category;
  /** Wallet balance: deposits, transfers, realized PnL, fees and funding; excludes unrealized PnL. */
  readonly balance: string;
  /** What a new order may use: wallet + unrealized PnL − margins (API-NOTES §4.1). */
  readonly availableBalance: string;
  readonly positionMargin: string;
  readonly orderMargin: string;
  readonly crossUnrealizedPnl: string;
  /** Balance of received trial vouchers in this coin (API-NOTES §4.1 `coupon`); not usable as margin here. */
  readonly coupon?: string;
}

export interface SpotBalanceView {
  readonly coin: string;
  readonly total: string;
  readonly free: string;
  readonly locked: string;
}

export interface UserTradeView {
  readonly id: string;
  readonly ticketId: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly userId: string;
  readonly category: Category;
  readonly symbol: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly isClose: boolean;
  readonly type: 'LIMIT' | 'MARKET';
  readonly price: string;
  readonly qty: string;
  readonly commission: string;
  readonly commissionAsset: string;
  readonly makerRebate: string;
  readonly realizedPnl: string;
  readonly isMaker: boolean;
  /** The simulated counterparty: the market itself. */
  readonly matchOrderId: string;
  readonly matchAccountId: string;
  readonly time: number;
}

/** Futures flow type numbers (API-NOTES §5.11). */
export type FlowKind = 'TRANSFER' | 'FEE' | 'REALIZED_PNL' | 'FUNDING' | 'LIQUIDATION' | 'WITHDRAW' | 'DEPOSIT';

export interface BalanceFlowView {
  readonly id: string;
  readonly accountId: string;
  readonly accountType: AccountType;
  readonly userId: string;
  readonly coin: string;
  readonly kind: FlowKind;
  /** 51 transfer, 10 fee, 28 realized PnL, 32 funding, 700 liquidation. */
  readonly flowTypeValue: number;
  /** USER_ACCOUNT_TRANSFER, TRADING_FEE, REALIZED_PNL, FUNDING_FEE, LIQUIDATION. */
  readonly flowType: string;
  readonly flowName: string;
  readonly symbol: string;
  readonly change: string;
  readonly total: string;
  readonly created: number;
}

export interface AccountView {
  readonly accountId: string;
  readonly userId: string;
  readonly accountType: AccountType;
}

export interface SubAccountView {
  readonly userId: string;
  readonly email: string;
  readonly remark: string;
  readonly accounts: readonly AccountView[];
}

export interface SymbolSettingsView {
  readonly symbol: string;
  readonly leverage: number;
  readonly marginType: MarginType;
}

// ---------------------------------------------------------------- queries

export interface OrderListQuery {
  /** Empty or absent: all symbols. */
  readonly symbol?: string;
  /** Cursor: only orders with a smaller id (newest first). */
  readonly beforeOrderId?: string;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit: number;
}

export interface AlgoListQuery extends OrderListQuery {
  /** STOP: plan rows only; STOP_PROFIT_LOSS: TP/SL rows only. */
  readonly stopCategory: 'STOP' | 'STOP_PROFIT_LOSS';
}

export interface TradeListQuery {
  readonly symbol: string;
  readonly fromId?: string;
  readonly toId?: string;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit: number;
}

export interface FlowQuery {
  readonly userId: string;
  readonly accountType?: AccountType;
  readonly category?: Category;
  readonly coin?: string;
  readonly kind?: FlowKind;
  readonly fromId?: string;
  readonly endId?: string;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit: number;
}

// ---------------------------------------------------------------- account events (the user data stream's source)

interface EventBase {
  /** Event time, epoch ms of the engine clock. */
  readonly time: number;
  readonly userId: string;
  readonly category: Category;
}

export interface BalanceChanged extends EventBase {
  readonly type: 'balance';
  readonly coin: Category;
  /** Free amount excluding unrealized PnL, and locked (position + order margin). */
  readonly free: string;
  readonly locked: string;
}

export interface PositionChanged extends EventBase {
  readonly type: 'position';
  readonly position: PositionView;
}

export interface OrderUpdated extends EventBase {
  readonly type: 'order';
  readonly order: OrderView;
  /** The fill that caused this update, if any. */
  readonly fill?: { readonly qty: string; readonly price: string; readonly commission: string; readonly isMaker: boolean } | undefined;
}

export interface TradeExecuted extends EventBase {
  readonly type: 'trade';
  readonly trade: UserTradeView;
  /**
   * The trade's commission and realized PnL as the values their text parses to (`moneyValue`), and its
   * price and quantity as the grid's decimals of its ticks and lots (the values of the text), when the
   * engine made them: an in-process reader takes these instead of parsing the text back.
   */
  readonly amounts?: { readonly commission: Decimal; readonly realizedPnl: Decimal; readonly price?: Decimal; readonly qty?: Decimal };
}

export interface PlanUpdated extends EventBase {
  readonly type: 'plan';
  readonly plan: AlgoOrderView;
  /** Price that triggered the row, when it triggered. */
  readonly quotePrice?: string;
}

export type AccountEvent = BalanceChanged | PositionChanged | OrderUpdated | TradeExecuted | PlanUpdated;
