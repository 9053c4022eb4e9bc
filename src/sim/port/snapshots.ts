import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import type { Balance, FundingPayment, Position } from '../../model/account.js';
import type { AlgoKind, AlgoOrderSnapshot, Fill, OrderSnapshot, TrailingStop } from '../../model/orders.js';
import { OrderEvent, PositionEvent } from '../engine/account-event-objects.js';
import type { OrderMoment, PositionMoment } from '../engine/account-moments.js';
import { orderAvgPrice, positionAvgPrice, positionLiquidationPrice, positionMarkTicks } from '../engine/account-moments.js';
import type { BalanceFigures } from '../engine/views.js';
import { moneyValue } from '../engine/views.js';
import type { AlgoOrderView, BalanceFlowView, FuturesBalanceView, OrderUpdated, OrderView, PositionChanged, PositionView, TradeExecuted, UserTradeView } from '../engine/types.js';

/**
 * Engine views (exact decimal text, string ids) as the kernel's snapshots. One mapping for REST-like
 * replies and for stream events; quantities are contracts on both sides. Prices, quantities and
 * leverages repeat from one event to the next and come from the shared decimal cache (the same
 * values: decimals are immutable); money figures, which rarely repeat, are parsed.
 */

/**
 * The last view mapped, with what it mapped to. An engine event's view is mapped by each of its listeners
 * in turn (the port for the kernel, a backtest's order and fill records): the later ones get the first
 * one's snapshot, which is immutable. Views are fresh objects per event or reply, never changed after.
 */
let lastOrder: { readonly view: OrderView; readonly updateTime: number; readonly snapshot: OrderSnapshot } | undefined;
let lastFill: { readonly view: UserTradeView; readonly fill: Fill } | undefined;

/** `updateTime` is the ordering key: the view's own time for replies, the event time `E` for stream events. */
export function orderSnapshotOf(view: OrderView, updateTime = view.updateTime): OrderSnapshot {
  if (lastOrder !== undefined && lastOrder.view === view && lastOrder.updateTime === updateTime) return lastOrder.snapshot;
  const snapshot = orderSnapshotOfView(view, updateTime);
  lastOrder = { view, updateTime, snapshot };
  return snapshot;
}

let lastOrderEvent: { readonly event: OrderEvent; readonly snapshot: OrderSnapshot } | undefined;

/**
 * An engine order event as the kernel's snapshot (`updateTime` the event time `E`): from the moment's
 * ticks and decimals when the engine made it (no view text made and parsed again), else from its view.
 * The same values either way; one snapshot for all of the event's listeners.
 */
export function orderSnapshotOfEvent(event: OrderUpdated): OrderSnapshot {
  if (!(event instanceof OrderEvent)) return orderSnapshotOf(event.order, event.time);
  if (lastOrderEvent !== undefined && lastOrderEvent.event === event) return lastOrderEvent.snapshot;
  const snapshot = orderSnapshotOfMoment(event.moment, event.time);
  lastOrderEvent = { event, snapshot };
  return snapshot;
}

/** What `orderSnapshotOfView(orderViewOf(m), updateTime)` gives, without the text. */
export function orderSnapshotOfMoment(m: OrderMoment, updateTime: number): OrderSnapshot {
  const order = m.record;
  const book = m.book;
  return {
    symbol: order.symbol,
    orderId: order.orderId,
    clientOrderId: m.clientOrderId,
    side: order.side,
    positionSide: order.positionSide,
    type: order.type,
    timeInForce: order.timeInForce,
    price: book.priceDecimals.of(m.priceTicks),
    quantity: book.qtyDecimals.of(m.origLots),
    filledQty: book.qtyDecimals.of(m.executedLots),
    avgPrice: orderAvgPrice(m),
    status: m.status,
    updateTime,
  };
}

function orderSnapshotOfView(view: OrderView, updateTime: number): OrderSnapshot {
  return {
    symbol: view.symbol,
    orderId: view.orderId,
    clientOrderId: view.clientOrderId,
    side: view.side,
    positionSide: view.positionSide,
    type: view.type,
    timeInForce: view.timeInForce,
    price: decimalOfText(view.price),
    quantity: decimalOfText(view.origQty),
    filledQty: decimalOfText(view.executedQty),
    avgPrice: dec(view.avgPrice),
    status: view.status,
    updateTime,
  };
}

function algoKindOf(view: AlgoOrderView): AlgoKind {
  if (view.type === 'STOP' || view.type === 'STOP_MARKET') return 'PLAN';
  return view.tpsl?.stopOrderType ?? 'STOP_LOSS';
}

function trailingOf(view: AlgoOrderView): TrailingStop | undefined {
  const tpsl = view.tpsl;
  if (tpsl === undefined || tpsl.stopType !== 'TRAILING_STOP' || tpsl.fallbackType === undefined) return undefined;
  const active = dec(tpsl.activePrice);
  return { ...(active.gt(0) ? { activePrice: active } : {}), callbackType: tpsl.fallbackType, callbackValue: dec(tpsl.fallbackQuantity), activated: tpsl.activeStatus === 1 };
}

export function algoSnapshotOf(view: AlgoOrderView, updateTime = view.updateTime): AlgoOrderSnapshot {
  const trailing = trailingOf(view);
  const executed = view.executedOrderId !== '' && view.executedOrderId !== '0' ? view.executedOrderId : undefined;
  const parent = view.parentOrderId !== '' && view.parentOrderId !== '0' ? view.parentOrderId : undefined;
  return {
    symbol: view.symbol,
    orderId: view.orderId,
    clientOrderId: view.clientOrderId,
    kind: algoKindOf(view),
    side: view.side,
    positionSide: view.positionSide,
    orderType: view.type === 'STOP' || view.type === 'STOP_PROFIT_LOSS' ? 'LIMIT' : 'MARKET',
    triggerPrice: dec(view.stopPrice),
    triggerBy: view.triggerBy,
    price: dec(view.price),
    quantity: dec(view.origQty),
    ...(trailing === undefined ? {} : { trailing }),
    status: view.status,
    ...(executed === undefined ? {} : { executedOrderId: executed }),
    ...(parent === undefined ? {} : { parentOrderId: parent }),
    updateTime,
  };
}

function positive(text: string, repeats = false): Decimal | undefined {
  const value = repeats ? decimalOfText(text) : dec(text);
  return value.gt(0) ? value : undefined;
}

export function positionOf(view: PositionView, updateTime: number): Position {
  const liquidationPrice = positive(view.liquidationPrice);
  const markPrice = positive(view.markPrice, true);
  return {
    symbol: view.symbol,
    positionSide: view.side,
    qty: decimalOfText(view.position),
    avgPrice: dec(view.avgPrice),
    leverage: decimalOfText(view.leverage),
    marginType: view.marginType,
    margin: dec(view.margin),
    unrealizedPnl: dec(view.unrealizedPnl),
    realizedPnl: dec(view.realizedPnl),
    ...(liquidationPrice === undefined ? {} : { liquidationPrice }),
    ...(markPrice === undefined ? {} : { markPrice }),
    updateTime,
  };
}

/** An engine position event as the kernel's position: from the moment's decimals when the engine made it (see `orderSnapshotOfEvent`). */
export function positionOfEvent(event: PositionChanged): Position {
  return event instanceof PositionEvent ? positionOfMoment(event.moment, event.time) : positionOf(event.position, event.time);
}

/** What `positionOf(positionViewOf(m), updateTime)` gives, without the text. */
function positionOfMoment(m: PositionMoment, updateTime: number): Position {
  const liquidation = positionLiquidationPrice(m);
  const markTicks = positionMarkTicks(m);
  const book = m.book;
  const symbol = m.record.symbol;
  const positionSide = m.record.side;
  const qty = book.qtyDecimals.of(m.lots);
  const avgPrice = positionAvgPrice(m);
  const leverage = leverageOf(m.leverage);
  const marginType = m.marginType;
  const margin = moneyValue(m.margin);
  const unrealizedPnl = moneyValue(m.math.unrealizedPnl);
  const realizedPnl = moneyValue(m.realizedPnl);
  // The optional prices present only when positive, as the view's text gives them; one literal per case (no spread of a temporary).
  if (markTicks <= 0) return liquidation.gt(0) ? { symbol, positionSide, qty, avgPrice, leverage, marginType, margin, unrealizedPnl, realizedPnl, liquidationPrice: liquidation, updateTime } : { symbol, positionSide, qty, avgPrice, leverage, marginType, margin, unrealizedPnl, realizedPnl, updateTime };
  const markPrice = book.priceDecimals.of(markTicks);
  return liquidation.gt(0)
    ? { symbol, positionSide, qty, avgPrice, leverage, marginType, margin, unrealizedPnl, realizedPnl, liquidationPrice: liquidation, markPrice, updateTime }
    : { symbol, positionSide, qty, avgPrice, leverage, marginType, margin, unrealizedPnl, realizedPnl, markPrice, updateTime };
}

/** Each whole leverage's decimal (`decimalOfText` of its text), made once: no text made and looked up per position event. */
const leverages = new Map<number, Decimal>();
function leverageOf(leverage: number): Decimal {
  let value = leverages.get(leverage);
  if (value === undefined) {
    value = decimalOfText(String(leverage));
    leverages.set(leverage, value);
  }
  return value;
}

/** A FUNDING flow (type 32) as a funding payment: `change` is signed (received positive). */
export function fundingOf(view: BalanceFlowView): FundingPayment {
  return { flowId: view.id, symbol: view.symbol, asset: view.coin, amount: dec(view.change), time: view.created };
}

/**
 * A REST balance: of the stream's balances' class (LazyBalance, its figures read now), so that the
 * kernel's cache sees one shape of balance (a plain object here deoptimized it: "wrong map").
 */
export function balanceOf(view: FuturesBalanceView, updateTime: number): Balance {
  const figures: BalanceFigures = {
    wallet: dec(view.balance),
    available: dec(view.availableBalance),
    positionMargin: dec(view.positionMargin),
    orderMargin: dec(view.orderMargin),
    crossUnrealizedPnl: dec(view.crossUnrealizedPnl),
  };
  return new LazyBalance(view.coin, () => figures, updateTime);
}

/** The same balance from the engine's figures (no text round trip): what `balanceOf` gives for the view they come from. */
export function balanceOfFigures(coin: string, f: BalanceFigures, updateTime: number): Balance {
  return { asset: coin, walletBalance: f.wallet, availableBalance: f.available, lockedMargin: f.positionMargin.add(f.orderMargin), unrealizedPnl: f.crossUnrealizedPnl, updateTime };
}

/**
 * `balanceOfFigures` of the engine's figures of one moment, made when a figure is first read: a
 * backtest's balance events (one per order placed, filled and ended) mostly reach no reader of their
 * figures, and making them was ~2.6% of its CPU. The figures are accessors of the class, as the lazy
 * market events' (a spread has none: read them by name); `toJSON` gives the plain form.
 */
class LazyBalance implements Balance {
  readonly asset: string;
  readonly updateTime: number;
  readonly #figures: () => BalanceFigures;
  #balance: Balance | undefined;

  constructor(asset: string, figures: () => BalanceFigures, updateTime: number) {
    this.asset = asset;
    this.updateTime = updateTime;
    this.#figures = figures;
    this.#balance = undefined;
  }

  get walletBalance(): Decimal {
    return this.toJSON().walletBalance;
  }

  get availableBalance(): Decimal {
    return this.toJSON().availableBalance;
  }

  get lockedMargin(): Decimal {
    return this.toJSON().lockedMargin;
  }

  get unrealizedPnl(): Decimal {
    return this.toJSON().unrealizedPnl;
  }

  toJSON(): Balance {
    return (this.#balance ??= balanceOfFigures(this.asset, this.#figures(), this.updateTime));
  }
}

/** The balance of the engine's figures of one moment (see LazyBalance). */
export function balanceOfLaterFigures(coin: string, figures: () => BalanceFigures, updateTime: number): Balance {
  return new LazyBalance(coin, figures, updateTime);
}

/** The trade id is the exchange's `ticketId`: the one id both the user stream (`T`) and userTrades carry. */
export function fillOf(view: UserTradeView, amounts?: TradeExecuted['amounts']): Fill {
  if (lastFill !== undefined && lastFill.view === view) return lastFill.fill;
  const fill = fillOfView(view, amounts);
  lastFill = { view, fill };
  return fill;
}

function fillOfView(view: UserTradeView, amounts: TradeExecuted['amounts']): Fill {
  return {
    symbol: view.symbol,
    tradeId: view.ticketId,
    orderId: view.orderId,
    clientOrderId: view.clientOrderId,
    side: view.side,
    positionSide: view.positionSide,
    price: amounts?.price ?? decimalOfText(view.price),
    qty: amounts?.qty ?? decimalOfText(view.qty),
    fee: amounts?.commission ?? dec(view.commission),
    feeAsset: view.commissionAsset,
    isMaker: view.isMaker,
    realizedPnl: amounts?.realizedPnl ?? dec(view.realizedPnl),
    time: view.time,
  };
}
