import type { SimInstrument } from './instruments.js';

/** One volatility regime of a synthetic market. */
export interface VolatilityRegime {
  readonly name: string;
  /** Annualised volatility of the log price (0.5 = 50 %). */
  readonly annualVolatility: number;
  /** Mean time spent in this regime before switching to another one (exponentially distributed). */
  readonly meanDurationMs: number;
  /** Poisson rate of taker orders (one order may print several trades when it sweeps levels). */
  readonly takerOrdersPerSecond: number;
  /** The spread is drawn in [min, max] ticks at each book refresh, small values more likely. */
  readonly minSpreadTicks: number;
  readonly maxSpreadTicks: number;
}

/** How a symbol's synthetic market behaves. Sizes are in lots (multiples of the quantity step). */
export interface SymbolDynamics {
  /** At least one; the market starts in the first. On leaving a regime the next is drawn uniformly among the others. */
  readonly regimes: readonly VolatilityRegime[];
  /** Pareto scale and tail index of taker order sizes. */
  readonly takerSizeMinLots: number;
  readonly takerSizeTailIndex: number;
  /** Mean size at the touch; deeper levels grow by `levelSizeGrowth` per level. */
  readonly touchLevelLots: number;
  readonly levelSizeGrowth: number;
  /** Probability that the next level leaves a gap of empty ticks, and the mean gap. */
  readonly levelGapProbability: number;
  readonly meanLevelGapTicks: number;
  /** Mark price = exponential moving average of the mid with this time constant. */
  readonly markSmoothingMs: number;
  /** log(mid/index) follows a mean-reverting process with this stationary deviation and time constant. */
  readonly basisDeviation: number;
  readonly basisReversionMs: number;
}

/**
 * Defaults scaled to the contract's value so BTC and ETH (and any added symbol) look alike in quote
 * terms: taker orders from ~300 quote units with a heavy tail, about 20 000 at the touch.
 */
export function defaultDynamics(instrument: SimInstrument): SymbolDynamics {
  const lotValue = Number(instrument.initialPrice) * Number(instrument.contractMultiplier) * Number(instrument.quantityStep);
  const lots = (quote: number): number => Math.max(1, Math.round(quote / lotValue));
  return {
    regimes: [
      { name: 'calm', annualVolatility: 0.4, meanDurationMs: 90 * 60_000, takerOrdersPerSecond: 2, minSpreadTicks: 1, maxSpreadTicks: 3 },
      { name: 'volatile', annualVolatility: 1.6, meanDurationMs: 25 * 60_000, takerOrdersPerSecond: 6, minSpreadTicks: 2, maxSpreadTicks: 10 },
    ],
    takerSizeMinLots: lots(300),
    takerSizeTailIndex: 1.4,
    touchLevelLots: lots(20_000),
    levelSizeGrowth: 0.12,
    levelGapProbability: 0.3,
    meanLevelGapTicks: 2,
    markSmoothingMs: 3000,
    basisDeviation: 0.0004,
    basisReversionMs: 30 * 60_000,
  };
}
