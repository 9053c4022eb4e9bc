import { Decimal } from 'stratd/strategy';
import type { Instrument } from 'stratd/strategy';

/**
 * Contracts such that the stop-loss, `atr × slMultiple` away, loses `riskPerTrade`:
 * riskPerTrade / (atr × slMultiple × contractMultiplier), cut to `room`. Undefined when nothing fits.
 * The risk engine rounds it down to the contract step.
 */
export function riskSizedQuantity(riskPerTrade: Decimal, atr: Decimal, slMultiple: Decimal, instrument: Instrument, room: Decimal): Decimal | undefined {
  const perContract = atr.mul(slMultiple).mul(instrument.contractMultiplier);
  if (!perContract.gt(0) || !room.gt(0)) return undefined;
  const qty = Decimal.min(riskPerTrade.div(perContract), room);
  return qty.gte(instrument.minQty) ? qty : undefined;
}
