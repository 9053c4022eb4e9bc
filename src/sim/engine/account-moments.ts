import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import { ratioInDigits } from '../../core/exact-decimal.js';
import { MAX_EXACT_SCALE, powerOfTen } from '../../core/scaled-integer.js';
import type { AccountFigures } from './account-math.js';
import { accountFigures, liquidationOf, riskRateOf } from './account-math.js';
import type { EngineState } from './engine-state.js';
import type { FuturesAccount } from './ledger.js';
import type { OrderRecord } from './order-record.js';
import type { PositionMath, PositionRecord } from './position-record.js';
import type { SymbolBook } from './symbol-book.js';
import type { MarginType, OrderStatus, PriceType } from './types.js';

/**
 * An order or a position as it stood at one moment: the record's changing fields copied (the record
 * moves on) with the figures it was read at. Views (wire text) are made from a moment, and the
 * in-process port maps a moment straight to the kernel's decimals: an account event's text is made only
 * when a reader (the user stream's socket, a REST reply) asks for it.
 */
export interface OrderMoment {
  /** The record, for the fields that never change (ids, side, type, time in force, leverage, …). */
  readonly record: OrderRecord;
  readonly book: SymbolBook;
  readonly clientOrderId: string;
  readonly priceTicks: number;
  readonly priceType: PriceType;
  readonly origLots: number;
  readonly executedLots: number;
  readonly cumQuote: Decimal;
  readonly marginLocked: Decimal;
  readonly commission: Decimal;
  readonly realizedPnl: Decimal;
  readonly status: OrderStatus;
  readonly updateTime: number;
}

export function orderMoment(state: EngineState, order: OrderRecord): OrderMoment {
  const book = state.books.get(order.symbol);
  if (book === undefined) throw new RangeError(`no book for ${order.symbol}`);
  return {
    record: order,
    book,
    clientOrderId: order.clientOrderId,
    priceTicks: order.priceTicks,
    priceType: order.priceType,
    origLots: order.origLots,
    executedLots: order.executedLots,
    cumQuote: order.cumQuote,
    marginLocked: order.marginLocked,
    commission: order.commission,
    realizedPnl: order.realizedPnl,
    status: order.status,
    updateTime: order.updateTime,
  };
}

const ZERO = dec(0);

/** The average fill price a view shows (price decimals + 4), zero before the first fill: exactly the value of the view's `avgPrice` text. */
export function orderAvgPrice(m: OrderMoment): Decimal {
  if (m.executedLots === 0) return ZERO;
  const book = m.book;
  const places = book.price.decimals + 4;
  // Most averages (every fill at one price) are exact within the places: the quote over the coins' digits, no decimal divided.
  const qty = book.qty.scaledOf(m.executedLots);
  const multiplier = book.multiplier;
  if (qty !== undefined && multiplier !== undefined) {
    const coinScale = book.qty.decimals + multiplier.decimals;
    const exact = coinScale <= MAX_EXACT_SCALE ? ratioInDigits(m.cumQuote, powerOfTen(coinScale), qty * multiplier.units) : undefined;
    if (exact !== undefined && exact.decimalPlaces() <= places) return exact;
  }
  const coins = book.qtyDecimals.of(m.executedLots).mul(decimalOfText(book.instrument.contractMultiplier));
  return m.cumQuote.div(coins).toDecimalPlaces(places);
}

/** A position with the account it belongs to, as it stood at one moment (see OrderMoment). */
export interface PositionMoment {
  readonly account: FuturesAccount;
  readonly record: PositionRecord;
  readonly book: SymbolBook;
  readonly marginType: MarginType;
  readonly leverage: number;
  readonly lots: number;
  readonly availableLots: number;
  readonly avgPrice: Decimal;
  readonly margin: Decimal;
  readonly realizedPnl: Decimal;
  readonly markTicks: number;
  readonly lastTicks: number;
  readonly liquidationPrice: Decimal;
  readonly math: PositionMath;
  /** The account's figures of the moment (for the risk rate, made only when a view shows it). */
  readonly figures: AccountFigures;
}

export function positionMoment(state: EngineState, account: FuturesAccount, position: PositionRecord, figures: AccountFigures = accountFigures(state, account)): PositionMoment {
  const book = state.books.get(position.symbol);
  if (book === undefined) throw new RangeError(`no book for ${position.symbol}`);
  const { liquidationPrice, math } = liquidationOf(state, account, position, figures);
  return {
    account,
    record: position,
    book,
    marginType: position.marginType,
    leverage: position.leverage,
    lots: position.lots,
    availableLots: position.availableLots,
    avgPrice: position.avgPrice,
    margin: position.margin,
    realizedPnl: position.realizedPnl,
    markTicks: book.markTicks,
    lastTicks: book.lastTicks,
    liquidationPrice,
    math,
    figures,
  };
}

/** A position's risk rate in percent at its moment (maintenance margin over margin balance). */
export function positionRiskRate(m: PositionMoment): Decimal {
  return riskRateOf(m.lots, m.marginType, m.margin, m.math, m.figures);
}

/** The price ticks a position view shows as its mark: the mark, else the last price, else none (0). */
export function positionMarkTicks(m: PositionMoment): number {
  return m.markTicks > 0 ? m.markTicks : m.lastTicks > 0 ? m.lastTicks : 0;
}

/** A position's average entry price as its view shows it (price decimals + 4; zero when flat). */
export function positionAvgPrice(m: PositionMoment): Decimal {
  return m.lots === 0 ? ZERO : m.avgPrice.toDecimalPlaces(m.book.price.decimals + 4);
}

/** A position's liquidation price as its view shows it (price decimals; zero when flat). */
export function positionLiquidationPrice(m: PositionMoment): Decimal {
  return m.lots === 0 ? ZERO : m.liquidationPrice.toDecimalPlaces(m.book.price.decimals);
}
