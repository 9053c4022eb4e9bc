import { dec } from '../../core/decimal.js';
import type { SimInstrument } from '../market-stream/instruments.js';
import type { RiskLimitRow } from './wire-rows.js';

/** The instrument's tiers as GET /api/v1/futures/riskLimits levels: from 1 by quantity, maxLeverage = floor(1 / initialMargin). */
export function riskLimitRows(instrument: SimInstrument): RiskLimitRow[] {
  return [...instrument.riskLimits]
    .sort((x, y) => dec(x.maxQuantity).comparedTo(y.maxQuantity))
    .map((tier, i) => ({
      level: i + 1,
      quantity: tier.maxQuantity,
      maintainMargin: tier.maintMarginRate,
      initialMargin: tier.initialMarginRate,
      maxLeverage: dec(1).div(tier.initialMarginRate).floor().toNumber(),
    }));
}
