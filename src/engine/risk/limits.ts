import type { Decimal } from '../../core/decimal.js';
import { compareDecimals } from '../../core/decimal.js';
import { distanceAbove } from '../../core/decimal-estimate.js';
import type { Denial } from '../../model/denials.js';
import type { RiskLimits } from '../../model/risk-limits.js';
import { denial } from './denial.js';

/**
 * The configured limits (a strategy's or the global ones; `label` says which in the message). Each
 * check answers a denial or undefined; the caller decides which orders they apply to.
 */

export function checkMaxPosition(limits: RiskLimits, label: string, contracts: Decimal): Denial | undefined {
  if (limits.maxPosition === undefined || compareDecimals(contracts, limits.maxPosition) <= 0) return undefined;
  return denial('MAX_POSITION', `${label} max position ${limits.maxPosition.toFixed()} contracts: this order would bring it to ${contracts.toFixed()}`);
}

export function checkMaxNotional(limits: RiskLimits, label: string, notional: Decimal): Denial | undefined {
  if (limits.maxNotional === undefined || compareDecimals(notional, limits.maxNotional) <= 0) return undefined;
  return denial('MAX_NOTIONAL', `${label} max notional ${limits.maxNotional.toFixed()}: this order would bring it to ${notional.toDecimalPlaces(8).toFixed()}`);
}

/** `equity` undefined: the balance is not known yet (the caller answers NOT_READY before this). */
export function checkMaxLeverage(limits: RiskLimits, label: string, notional: Decimal, equity: Decimal): Denial | undefined {
  if (limits.maxLeverage === undefined) return undefined;
  if (equity.lte(0)) return denial('MAX_LEVERAGE', `${label} max leverage ${limits.maxLeverage.toFixed()}: equity is ${equity.toFixed()}`);
  const leverage = notional.div(equity);
  if (compareDecimals(leverage, limits.maxLeverage) <= 0) return undefined;
  return denial('MAX_LEVERAGE', `${label} max leverage ${limits.maxLeverage.toFixed()}: this order would bring it to ${leverage.toDecimalPlaces(4).toFixed()}`);
}

export function checkMaxOpenOrders(limits: RiskLimits, label: string, open: number): Denial | undefined {
  if (limits.maxOpenOrders === undefined || open < limits.maxOpenOrders) return undefined;
  return denial('MAX_OPEN_ORDERS', `${label} max open orders ${limits.maxOpenOrders} reached`);
}

export function checkOrderRate(limits: RiskLimits, label: string, lastMinute: number): Denial | undefined {
  if (limits.maxOrdersPerMinute === undefined || lastMinute < limits.maxOrdersPerMinute) return undefined;
  return denial('ORDER_RATE', `${label} max ${limits.maxOrdersPerMinute} orders per minute reached`);
}

/** Each limits' `priceBandPct` as a fraction (5 → 0.05), made once: exact, a division by 100 moves the exponent only. */
const bandFractions = new WeakMap<RiskLimits, Decimal>();

/**
 * |price − mark| / mark in percent, at most `priceBandPct`. The distance is compared as a fraction with
 * the band over 100 (the same answer as its percent against the band: ×100 is exact), by `distanceAbove`
 * (a double estimate where it is clearly inside or out, decimal.js's steps near the edge).
 */
export function checkPriceBandPct(limits: RiskLimits, label: string, price: Decimal, mark: Decimal): Denial | undefined {
  if (limits.priceBandPct === undefined) return undefined;
  let band = bandFractions.get(limits);
  if (band === undefined) {
    band = limits.priceBandPct.div(100);
    bandFractions.set(limits, band);
  }
  if (!distanceAbove(price, mark, mark, band)) return undefined;
  const pct = price.sub(mark).abs().div(mark).mul(100);
  return denial('PRICE_BAND', `${label} price band ${limits.priceBandPct.toFixed()}%: price ${price.toFixed()} is ${pct.toDecimalPlaces(4).toFixed()}% from mark ${mark.toFixed()}`);
}
