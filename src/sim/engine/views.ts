import type { Decimal } from '../../core/decimal.js';
import { dec, decText } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import type { AccountFigures } from './account-math.js';
import { accountFigures } from './account-math.js';
import type { OrderMoment, PositionMoment } from './account-moments.js';
import { orderAvgPrice, orderMoment, positionAvgPrice, positionLiquidationPrice, positionMoment, positionRiskRate } from './account-moments.js';
import type { EngineState } from './engine-state.js';
import type { FuturesAccount } from './ledger.js';
import type { OrderRecord } from './order-record.js';
import type { PositionRecord } from './position-record.js';
import { maxLeverageOf } from './position-record.js';
import type { FuturesBalanceView, OrderView, PositionView } from './types.js';

/**
 * Money as the wire shows it: at most 8 decimals, no trailing zeros. A value with 8 decimals or fewer
 * (most: fees and margins of a coarse grid) is shown as it is, without the rounded copy.
 */
export function money(value: Decimal): string {
  return value.decimalPlaces() <= 8 ? value.toFixed() : value.toDecimalPlaces(8).toFixed();
}

export function orderView(state: EngineState, order: OrderRecord): OrderView {
  return orderViewOf(orderMoment(state, order));
}

/** The view of an order as it stood at a moment. */
export function orderViewOf(m: OrderMoment): OrderView {
  const order = m.record;
  const book = m.book;
  return {
    orderId: order.orderId,
    clientOrderId: m.clientOrderId,
    accountId: order.accountId,
    userId: order.userId,
    category: order.category,
    symbol: order.symbol,
    side: order.side,
    positionSide: order.positionSide,
    isClose: order.isClose,
    type: order.type,
    price: book.price.toText(m.priceTicks),
    priceType: m.priceType,
    origQty: book.qty.toText(m.origLots),
    executedQty: book.qty.toText(m.executedLots),
    avgPrice: decText(orderAvgPrice(m)),
    cumQuote: money(m.cumQuote),
    marginLocked: money(m.marginLocked),
    leverage: String(order.leverage),
    marginType: order.marginType,
    timeInForce: order.timeInForce,
    status: m.status,
    contractMultiplier: book.instrument.contractMultiplier,
    commission: money(m.commission),
    commissionAsset: order.category,
    realizedPnl: money(m.realizedPnl),
    time: order.time,
    updateTime: m.updateTime,
    ...(order.sourceAlgoOrderId === undefined ? {} : { sourceAlgoOrderId: order.sourceAlgoOrderId }),
  };
}

export function positionView(state: EngineState, account: FuturesAccount, position: PositionRecord, figures: AccountFigures = accountFigures(state, account)): PositionView {
  return positionViewOf(positionMoment(state, account, position, figures));
}

/** The view of a position as it stood at a moment. */
export function positionViewOf(m: PositionMoment): PositionView {
  const { account, book, math } = m;
  const last = m.lastTicks > 0 ? book.price.toText(m.lastTicks) : '0';
  const mark = m.markTicks > 0 ? book.price.toText(m.markTicks) : last;
  const lastTier = book.instrument.riskLimits[book.instrument.riskLimits.length - 1];
  const tierCap = lastTier === undefined ? dec(0) : decimalOfText(lastTier.maxQuantity).mul(decimalOfText(book.instrument.contractMultiplier)).mul(decimalOfText(mark));
  return {
    accountId: account.accountId,
    userId: account.userId,
    category: account.category,
    symbol: m.record.symbol,
    side: m.record.side,
    marginType: m.marginType,
    leverage: String(m.leverage),
    position: book.qty.toText(m.lots),
    available: book.qty.toText(m.availableLots),
    avgPrice: decText(positionAvgPrice(m)),
    markPrice: mark,
    lastPrice: last,
    positionValue: money(math.value),
    margin: money(m.margin),
    maintMargin: money(math.maintMargin),
    liquidationPrice: decText(positionLiquidationPrice(m)),
    unrealizedPnl: money(math.unrealizedPnl),
    realizedPnl: money(m.realizedPnl),
    profitRate: m.margin.isZero() ? '0' : decText(math.unrealizedPnl.div(m.margin).toDecimalPlaces(4)),
    riskRate: decText(positionRiskRate(m).toDecimalPlaces(2)),
    maxNotionalValue: money(tierCap),
  };
}

export function balanceView(state: EngineState, account: FuturesAccount): FuturesBalanceView {
  const f = accountFigures(state, account);
  return {
    accountId: account.accountId,
    coin: account.category,
    balance: money(account.wallet),
    availableBalance: money(f.available),
    positionMargin: money(f.positionMargin),
    orderMargin: money(f.orderMargin),
    crossUnrealizedPnl: money(f.crossUnrealizedPnl),
  };
}

/** An account's balance figures as `balanceView` shows them, as decimals: each is the value its text parses to (8 decimals at most). */
export interface BalanceFigures {
  readonly wallet: Decimal;
  readonly available: Decimal;
  readonly positionMargin: Decimal;
  readonly orderMargin: Decimal;
  readonly crossUnrealizedPnl: Decimal;
}

/**
 * `balanceView`'s figures without the text round trip: the user stream's balance event (one per order
 * placed, filled and ended) reads these, where formatting five figures only to parse them again cost
 * more than computing them.
 */
export function balanceFigures(f: AccountFigures): BalanceFigures {
  return {
    wallet: moneyValue(f.wallet),
    available: moneyValue(f.available),
    positionMargin: moneyValue(f.positionMargin),
    orderMargin: moneyValue(f.orderMargin),
    crossUnrealizedPnl: moneyValue(f.crossUnrealizedPnl),
  };
}

/** `balanceFigures` of figures made when first asked, made when first read themselves. */
export function balanceFiguresLater(figures: () => AccountFigures): () => BalanceFigures {
  let balance: BalanceFigures | undefined;
  return () => (balance ??= balanceFigures(figures()));
}

const ZERO = dec(0);

/** The decimal `dec(money(value))` gives: 8 decimals at most, and a zero unsigned (the text of -0 is "0"). */
export function moneyValue(value: Decimal): Decimal {
  const rounded = value.decimalPlaces() <= 8 ? value : value.toDecimalPlaces(8);
  return rounded.isZero() ? ZERO : rounded;
}

export { maxLeverageOf };
