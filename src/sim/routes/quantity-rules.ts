import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { SimInstrument } from '../market-stream/instruments.js';

/**
 * Contracts bought by a quote-coin notional at `price` (API-NOTES §6.2): value / (price × multiplier),
 * rounded DOWN to the contract step so the order never exceeds the notional. Zero when it buys less
 * than one step.
 */
export function contractsForValue(value: Decimal, price: Decimal, instrument: Pick<SimInstrument, 'contractMultiplier' | 'quantityStep'>): Decimal {
  const unit = price.mul(dec(instrument.contractMultiplier));
  if (!unit.gt(0)) return dec(0);
  const step = dec(instrument.quantityStep);
  return value.div(unit).div(step).floor().mul(step);
}
