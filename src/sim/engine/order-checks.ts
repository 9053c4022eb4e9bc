import type { Decimal } from '../../core/decimal.js';
import { aboveZero, compareDecimals, dec, decText } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import { decimalOfScaled, scaledInteger } from '../../core/scaled-integer.js';
import { dividedExact, plusExact, timesExact } from '../../core/exact-decimal.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { reject } from './rejects.js';
import type { StepGrid } from '../market-stream/ticks.js';
import type { SymbolBook } from './symbol-book.js';
import type { SimReject } from './types.js';

const TWO = dec(2);

/** A limit price checked against PRICE_FILTER: on the tick grid and within min/max. */
export function checkPrice(book: SymbolBook, price: Decimal, name = 'price'): Result<number, SimReject> {
  // A positive price on the grid within bounds on the grid passes every check below: decided in ticks, no decimal compared.
  const bounds = book.priceBounds;
  const ticksOnGrid = bounds === null ? undefined : unitsOf(book.price, price);
  if (ticksOnGrid !== undefined && bounds !== null && ticksOnGrid > 0 && ticksOnGrid >= bounds.min && ticksOnGrid <= bounds.max) return ok(ticksOnGrid);
  if (price.isZero() || price.isNegative()) return err(reject.param(name));
  const f = book.filters.priceFilter;
  if (compareDecimals(price, decimalOfText(f.minPrice)) < 0) return err(reject.priceLow(decText(price), f.minPrice));
  if (compareDecimals(price, decimalOfText(f.maxPrice)) > 0) return err(reject.priceHigh(decText(price), f.maxPrice));
  const ticks = unitsOf(book.price, price);
  if (ticks === undefined) return err(reject.priceTick(decText(price), f.tickSize));
  return ok(ticks);
}

/** LIMIT_TRADING band: a buy may not be above last × (1 + up), a sell not below last × (1 − down). */
export function checkLimitBand(book: SymbolBook, buying: boolean, priceTicks: number): SimReject | undefined {
  const bound = book.bandTicks(buying, buying ? book.rates.limitBuy : book.rates.limitSell);
  if (bound === undefined) return undefined;
  if (buying ? priceTicks > bound : priceTicks < bound) return reject.priceBand(book.price.toText(priceTicks), book.price.toText(bound));
  return undefined;
}

/**
 * Contracts of an order: `quantity` when positive, else `valueQuantity` (quote notional) turned into whole
 * steps at `priceTicks`; checked against the quantity step and LOT_SIZE bounds (in contracts).
 */
export function resolveLots(book: SymbolBook, quantity: Decimal | undefined, valueQuantity: Decimal | undefined, priceTicks: number): Result<number, SimReject> {
  const step = book.qty.step;
  if (quantity !== undefined && aboveZero(quantity)) {
    const lots = unitsOf(book.qty, quantity);
    if (lots === undefined) return err(reject.quantityStep(decText(quantity), step));
    return checkLotBounds(book, lots);
  }
  if (valueQuantity !== undefined && aboveZero(valueQuantity)) {
    if (priceTicks <= 0) return err(reject.noDepth(book.instrument.symbol));
    const perContract = dec(book.price.toText(priceTicks)).mul(book.instrument.contractMultiplier);
    const lots = valueQuantity.div(perContract).div(step).floor().toNumber();
    return checkLotBounds(book, lots);
  }
  if ((quantity !== undefined && quantity.lt(0)) || (valueQuantity !== undefined && valueQuantity.lt(0))) return err(reject.param(quantity !== undefined ? 'quantity' : 'valueQuantity'));
  return err(reject.mandatory('quantity'));
}

/** `grid.tryUnits(decText(x))` read from the decimal's digits (no text made and parsed): undefined off the grid or beyond 2^53. */
function unitsOf(grid: StepGrid, x: Decimal): number | undefined {
  const scaled = scaledInteger(x, grid.decimals);
  return scaled === undefined ? undefined : grid.unitsOfScaled(scaled);
}

/** 1 / leverage, the initial margin rate a leverage needs, one decimal per distinct leverage. */
const leverageRates = new Map<number, Decimal>();
export function leverageRate(leverage: number): Decimal {
  let rate = leverageRates.get(leverage);
  if (rate === undefined) {
    rate = dec(1).div(leverage);
    leverageRates.set(leverage, rate);
  }
  return rate;
}

function checkLotBounds(book: SymbolBook, lots: number): Result<number, SimReject> {
  const { min, max } = book.lotBounds;
  if (lots < min) return err(reject.quantityLow(book.qty.toText(lots), book.instrument.minQuantity));
  if (lots > max) return err(reject.quantityHigh(book.qty.toText(lots), book.instrument.maxQuantity));
  return ok(lots);
}

/**
 * Quote notional of `lots` at `priceTicks`: price × contracts × multiplier. In integers when the product
 * of the three digit counts is a safe integer (at most 16 digits: decimal.js's 20-digit products of the
 * same values are exact too, so the value is the same), else in decimals of repeated text from the cache.
 */
export function notionalOf(book: SymbolBook, lots: number, priceTicks: number): Decimal {
  const multiplier = book.multiplier;
  const price = book.price.scaledOf(priceTicks);
  const qty = book.qty.scaledOf(lots);
  if (multiplier !== undefined && price !== undefined && qty !== undefined) {
    const units = price * qty * multiplier.units;
    if (Number.isSafeInteger(units)) return decimalOfScaled(units, book.price.decimals + book.qty.decimals + multiplier.decimals);
  }
  return book.priceDecimals.of(priceTicks).mul(book.qtyDecimals.of(lots)).mul(book.multiplierDecimal);
}

/** MIN_NOTIONAL. */
export function checkNotional(book: SymbolBook, notional: Decimal): SimReject | undefined {
  return compareDecimals(notional, book.minNotional) < 0 ? reject.minNotional(decText(notional.toDecimalPlaces(8)), book.filters.minNotional) : undefined;
}

/** Margin an opening order reserves: initial margin plus the opening and closing fee at the taker rate (document 000). */
export function openingMargin(book: SymbolBook, notional: Decimal, leverage: number): Decimal {
  return plusExact(dividedExact(notional, leverage), timesExact(timesExact(notional, book.takerFeeRate), TWO));
}
