import type { Decimal } from '../../core/decimal.js';
import { compareDecimals } from '../../core/decimal.js';
import { productSign } from '../../core/decimal-estimate.js';
import type { Denial } from '../../model/denials.js';
import type { Instrument, PriceBand, Side } from '../../model/instrument.js';
import { denial } from './denial.js';

/** The instrument's own filters, as the exchange would apply them (checked here to fail early and clearly). */

/** PRICE_FILTER: min and max price. */
export function checkPriceFilter(instrument: Instrument, price: Decimal, what: string): Denial | undefined {
  if (compareDecimals(price, instrument.minPrice) < 0) return denial('PRICE_FILTER', `${what} ${price.toFixed()} is below the minimum price ${instrument.minPrice.toFixed()}`);
  if (compareDecimals(price, instrument.maxPrice) > 0) return denial('PRICE_FILTER', `${what} ${price.toFixed()} is above the maximum price ${instrument.maxPrice.toFixed()}`);
  return undefined;
}

/** LOT_SIZE in contracts: min and max quantity. */
export function checkQtyFilter(instrument: Instrument, qty: Decimal): Denial | undefined {
  if (compareDecimals(qty, instrument.minQty) < 0) return denial('QTY_FILTER', `quantity ${qty.toFixed()} is below the minimum ${instrument.minQty.toFixed()}`);
  if (compareDecimals(qty, instrument.maxQty) > 0) return denial('QTY_FILTER', `quantity ${qty.toFixed()} is above the maximum ${instrument.maxQty.toFixed()}`);
  return undefined;
}

/** Quote notional of `qty` contracts at `price`. */
export function notionalOf(instrument: Instrument, price: Decimal, qty: Decimal): Decimal {
  return price.mul(qty).mul(instrument.contractMultiplier);
}

function notionalText(notional: Decimal): string {
  return notional.toDecimalPlaces(8).toFixed();
}

/**
 * MIN_NOTIONAL / TRADE_AMOUNT of `qty` contracts at `price`. The minimum is not applied to closing
 * orders: a position left smaller than the minimum must still be closable. A notional clearly within
 * both (`productSign`) is not made.
 */
export function checkNotionalFilter(instrument: Instrument, price: Decimal, qty: Decimal, opening: boolean): Denial | undefined {
  const min = opening ? instrument.minNotional : undefined;
  const max = instrument.maxNotional;
  const multiplier = instrument.contractMultiplier;
  if ((min === undefined || productSign(price, qty, multiplier, min) === 1) && (max === undefined || productSign(price, qty, multiplier, max) === -1)) return undefined;
  const notional = notionalOf(instrument, price, qty);
  if (opening && instrument.minNotional !== undefined && compareDecimals(notional, instrument.minNotional) < 0) {
    return denial('NOTIONAL_FILTER', `notional ${notionalText(notional)} is below the minimum ${instrument.minNotional.toFixed()}`);
  }
  if (instrument.maxNotional !== undefined && compareDecimals(notional, instrument.maxNotional) > 0) {
    return denial('NOTIONAL_FILTER', `notional ${notionalText(notional)} is above the maximum ${instrument.maxNotional.toFixed()}`);
  }
  return undefined;
}

/** Each band's factors 1 + buyUpRate and 1 − sellDownRate, made once per band. */
const bandFactors = new WeakMap<PriceBand, { readonly up: Decimal; readonly down: Decimal }>();

function factorsOf(band: PriceBand): { readonly up: Decimal; readonly down: Decimal } {
  let factors = bandFactors.get(band);
  if (factors === undefined) {
    factors = { up: band.buyUpRate.add(1), down: band.sellDownRate.neg().add(1) };
    bandFactors.set(band, factors);
  }
  return factors;
}

/** A buy may be at most ref × (1 + up), a sell at least ref × (1 − down); the bound is made only near or past it (`productSign`). */
export function checkBand(band: PriceBand, side: Side, price: Decimal, reference: Decimal, what: string): Denial | undefined {
  const factors = factorsOf(band);
  if (side === 'BUY') {
    if (productSign(reference, factors.up, undefined, price) === 1) return undefined;
    const bound = reference.mul(factors.up);
    if (compareDecimals(price, bound) > 0) return denial('PRICE_BAND', `${what} ${price.toFixed()} is above the exchange band ${bound.toFixed()} (mark ${reference.toFixed()})`);
  } else {
    if (productSign(reference, factors.down, undefined, price) === -1) return undefined;
    const bound = reference.mul(factors.down);
    if (compareDecimals(price, bound) < 0) return denial('PRICE_BAND', `${what} ${price.toFixed()} is below the exchange band ${bound.toFixed()} (mark ${reference.toFixed()})`);
  }
  return undefined;
}
