import { Decimal, dec, decText } from '../../core/decimal.js';
import type { Instrument } from '../../model/instrument.js';
import type { RiskLimitTier, SimInstrument } from '../../sim/market-stream/instruments.js';

/** What a model Instrument does not say and the stream header needs: risk tiers and fee rates. */
export interface InstrumentHints {
  readonly riskLimits?: readonly RiskLimitTier[];
  readonly makerFeeRate?: string;
  readonly takerFeeRate?: string;
}

/** Fee rates used when nothing better is known: the simulator's (maker 0.02 %, taker 0.06 %). */
export const ESTIMATED_MAKER_FEE_RATE = '0.0002';
export const ESTIMATED_TAKER_FEE_RATE = '0.0006';

/** Header fields that were estimated rather than known. */
export type EstimatedField = 'riskLimits' | 'makerFeeRate' | 'takerFeeRate' | 'initialPrice';

export interface HeaderInstrument {
  readonly instrument: SimInstrument;
  readonly estimated: readonly EstimatedField[];
}

/**
 * A stream-header instrument from the daemon's model Instrument (contracts throughout, as both are).
 * Without hints: one risk tier up to the order max, initial margin 1 / maxLeverage (rounded up to 8
 * places), maintenance half of it; the simulator's fee rates. `initialPrice` is only where a
 * synthetic market would start (a replay uses its own prices): the first price recorded for the
 * symbol; without one, the tick size as a placeholder (marked estimated).
 */
export function headerInstrument(instrument: Instrument, hints: InstrumentHints | undefined, initialPrice: Decimal | undefined): HeaderInstrument {
  const estimated: EstimatedField[] = [];
  const step = positiveOr(instrument.qtyStep, dec(1));
  const maxQuantity = positiveOr(instrument.maxQty, step.mul(1_000_000_000));
  let riskLimits = hints?.riskLimits;
  if (riskLimits === undefined || riskLimits.length === 0) {
    estimated.push('riskLimits');
    const leverage = positiveOr(instrument.maxLeverage, dec(1));
    const initial = dec(1).div(leverage).toDecimalPlaces(8, Decimal.ROUND_CEIL);
    riskLimits = [{ riskLimitId: 'estimated', maxQuantity: decText(maxQuantity), initialMarginRate: decText(initial), maintMarginRate: decText(initial.div(2)) }];
  }
  const makerFeeRate = hints?.makerFeeRate ?? ESTIMATED_MAKER_FEE_RATE;
  if (hints?.makerFeeRate === undefined) estimated.push('makerFeeRate');
  const takerFeeRate = hints?.takerFeeRate ?? ESTIMATED_TAKER_FEE_RATE;
  if (hints?.takerFeeRate === undefined) estimated.push('takerFeeRate');
  const tick = positiveOr(instrument.tickSize, dec('0.00000001'));
  const price = initialPrice !== undefined && initialPrice.gt(0) ? initialPrice : undefined;
  if (price === undefined) estimated.push('initialPrice');
  return {
    instrument: {
      symbol: instrument.symbol,
      category: instrument.category,
      baseAsset: instrument.baseAsset,
      tickSize: decText(tick),
      contractMultiplier: decText(positiveOr(instrument.contractMultiplier, dec(1))),
      quantityStep: decText(step),
      minQuantity: decText(positiveOr(instrument.minQty, step)),
      maxQuantity: decText(maxQuantity),
      riskLimits,
      makerFeeRate,
      takerFeeRate,
      initialPrice: decText(price ?? tick),
    },
    estimated,
  };
}

/** Hints from the simulator's own instruments (paper mode): exact tiers and fee rates. */
export function hintsFromSimInstruments(instruments: readonly SimInstrument[]): Map<string, InstrumentHints> {
  return new Map(instruments.map((i) => [i.symbol, { riskLimits: i.riskLimits, makerFeeRate: i.makerFeeRate, takerFeeRate: i.takerFeeRate }]));
}

function positiveOr(value: Decimal, fallback: Decimal): Decimal {
  return value.gt(0) ? value : fallback;
}
