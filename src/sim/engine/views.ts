import type { Decimal } from '../../core/decimal.js';
import { dec, decText } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import type { AccountFigures } from './account-math.js';
import { accountFigures, riskOf } from './account-math.js';
import type { EngineState } from './engine-state.js';
import type { FuturesAccount } from './ledger.js';
import type { OrderRecord } from './order-record.js';
import type { PositionRecord } from './position-record.js';
import { maxLeverageOf } from './position-record.js';
import type { FuturesBalanceView, OrderView, PositionView } from './types.js';

/** Money as the wire shows it: at most 8 decimals, no trailing zeros. */
export function money(value: { toDecimalPlaces(n: number): { toFixed(): string } }): string {
  return value.toDecimalPlaces(8).toFixed();
}

export function orderView(state: EngineState, order: OrderRecord): OrderView {
  const book = state.books.get(order.symbol);
  if (book === undefined) throw new RangeError(`no book for ${order.symbol}`);
  const executed = book.qty.toText(order.executedLots);
  const coins = dec(executed).mul(book.instrument.contractMultiplier);
  return {
    orderId: order.orderId,
    clientOrderId: order.clientOrderId,
    accountId: order.accountId,
    userId: order.userId,
    category: order.category,
    symbol: order.symbol,
    side: order.side,
    positionSide: order.positionSide,
    isClose: order.isClose,
    type: order.type,
    price: book.price.toText(order.priceTicks),
    priceType: order.priceType,
    origQty: book.qty.toText(order.origLots),
    executedQty: executed,
    avgPrice: coins.isZero() ? '0' : decText(order.cumQuote.div(coins).toDecimalPlaces(book.price.decimals + 4)),
    cumQuote: money(order.cumQuote),
    marginLocked: money(order.marginLocked),
    leverage: String(order.leverage),
    marginType: order.marginType,
    timeInForce: order.timeInForce,
    status: order.status,
    contractMultiplier: book.instrument.contractMultiplier,
    commission: money(order.commission),
    commissionAsset: order.category,
    realizedPnl: money(order.realizedPnl),
    time: order.time,
    updateTime: order.updateTime,
    ...(order.sourceAlgoOrderId === undefined ? {} : { sourceAlgoOrderId: order.sourceAlgoOrderId }),
  };
}

export function positionView(state: EngineState, account: FuturesAccount, position: PositionRecord, figures: AccountFigures = accountFigures(state, account)): PositionView {
  const book = state.books.get(position.symbol);
  if (book === undefined) throw new RangeError(`no book for ${position.symbol}`);
  const { riskRate, liquidationPrice, math } = riskOf(state, account, position, figures);
  const last = book.lastTicks > 0 ? book.price.toText(book.lastTicks) : '0';
  const mark = book.markTicks > 0 ? book.price.toText(book.markTicks) : last;
  const lastTier = book.instrument.riskLimits[book.instrument.riskLimits.length - 1];
  const tierCap = lastTier === undefined ? dec(0) : decimalOfText(lastTier.maxQuantity).mul(decimalOfText(book.instrument.contractMultiplier)).mul(decimalOfText(mark));
  return {
    accountId: account.accountId,
    userId: account.userId,
    category: account.category,
    symbol: position.symbol,
    side: position.side,
    marginType: position.marginType,
    leverage: String(position.leverage),
    position: book.qty.toText(position.lots),
    available: book.qty.toText(position.availableLots),
    avgPrice: position.lots === 0 ? '0' : decText(position.avgPrice.toDecimalPlaces(book.price.decimals + 4)),
    markPrice: mark,
    lastPrice: last,
    positionValue: money(math.value),
    margin: money(position.margin),
    maintMargin: money(math.maintMargin),
    liquidationPrice: position.lots === 0 ? '0' : decText(liquidationPrice.toDecimalPlaces(book.price.decimals)),
    unrealizedPnl: money(math.unrealizedPnl),
    realizedPnl: money(position.realizedPnl),
    profitRate: position.margin.isZero() ? '0' : decText(math.unrealizedPnl.div(position.margin).toDecimalPlaces(4)),
    riskRate: decText(riskRate.toDecimalPlaces(2)),
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
export function balanceFigures(state: EngineState, account: FuturesAccount): BalanceFigures {
  const f = accountFigures(state, account);
  return {
    wallet: moneyValue(account.wallet),
    available: moneyValue(f.available),
    positionMargin: moneyValue(f.positionMargin),
    orderMargin: moneyValue(f.orderMargin),
    crossUnrealizedPnl: moneyValue(f.crossUnrealizedPnl),
  };
}

const ZERO = dec(0);

/** The decimal `dec(money(value))` gives: 8 decimals at most, and a zero unsigned (the text of -0 is "0"). */
function moneyValue(value: Decimal): Decimal {
  const rounded = value.toDecimalPlaces(8);
  return rounded.isZero() ? ZERO : rounded;
}

/**
 * Free (wallet − margins, no unrealized PnL) and locked (position + order margin), as the stream's B
 * entries. Only the margins: the sums `accountFigures` makes of them (same terms, same order), without
 * the mark-price figures of every position it computes too, which this event never shows (it is emitted
 * on every order placed, filled and ended).
 */
export function balanceEventFigures(account: FuturesAccount): { readonly free: string; readonly locked: string } {
  let positionMargin = ZERO;
  for (const p of account.positions.values()) if (p.lots !== 0) positionMargin = positionMargin.add(p.margin);
  const locked = positionMargin.add(account.orderMargin());
  return { free: money(account.wallet.sub(locked)), locked: money(locked) };
}

export { maxLeverageOf };
