import { decText } from '../../core/decimal.js';
import type { Logger } from '../../core/logger.js';
import type { RiskLimitTier, SimInstrument } from '../../sim/market-stream/instruments.js';
import type { MarketApi } from '../../venue/api/market.js';
import type { ContractRiskLimit } from '../../venue/parsers/exchange-info.js';
import type { InstrumentHints } from './instruments.js';
import { hintsFromSimInstruments } from './instruments.js';

export interface LoadHintsOptions {
  /** The venue's public market API (exchangeInfo carries each contract's risk tiers). */
  readonly market: Pick<MarketApi, 'exchangeInfo'>;
  readonly symbols: readonly string[];
  /** Paper mode: the embedded simulator's instruments, exact in every field. */
  readonly sim?: readonly SimInstrument[];
  /** Fee rates to write for every symbol (the venue has no endpoint the client reads them from). */
  readonly fees?: { readonly maker: string; readonly taker: string };
  readonly logger: Logger;
}

/**
 * The risk tiers and fee rates the recorder puts in its headers: the simulator's own instruments in
 * paper mode; otherwise exchangeInfo's tiers (non-whitelist ones, by quantity) and the configured fee
 * rates, if any (else the recorder estimates them). A failed exchangeInfo is logged and left to estimates.
 */
export async function loadInstrumentHints(options: LoadHintsOptions): Promise<Map<string, InstrumentHints>> {
  const { symbols, fees } = options;
  const feeHints: InstrumentHints = fees === undefined ? {} : { makerFeeRate: fees.maker, takerFeeRate: fees.taker };
  if (options.sim !== undefined) {
    const exact = hintsFromSimInstruments(options.sim.filter((i) => symbols.includes(i.symbol)));
    if (fees !== undefined) for (const [symbol, hints] of exact) exact.set(symbol, { ...hints, ...feeHints });
    return exact;
  }
  const hints = new Map<string, InstrumentHints>(symbols.map((s) => [s, feeHints]));
  const info = await options.market.exchangeInfo();
  if (!info.ok) {
    options.logger.warn({ err: info.error.message }, 'exchangeInfo failed: the recording header estimates risk tiers');
    return hints;
  }
  for (const contract of info.value.contracts) {
    if (!symbols.includes(contract.symbol)) continue;
    const riskLimits = tiersOf(contract.riskLimits);
    hints.set(contract.symbol, { ...feeHints, ...(riskLimits.length === 0 ? {} : { riskLimits }) });
  }
  return hints;
}

/** exchangeInfo risk tiers as the stream header (and the simulator) hold them: the regular (non-whitelist) ones, by quantity. */
export function tiersOf(limits: readonly ContractRiskLimit[]): RiskLimitTier[] {
  const regular = limits.filter((l) => l.isWhite !== true);
  return (regular.length > 0 ? regular : limits)
    .filter((l) => l.quantity.gt(0))
    .sort((a, b) => a.quantity.comparedTo(b.quantity))
    .map((l) => ({ riskLimitId: l.riskLimitId, maxQuantity: decText(l.quantity), initialMarginRate: decText(l.initialMargin), maintMarginRate: decText(l.maintMargin) }));
}
