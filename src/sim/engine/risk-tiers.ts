import type { Decimal } from '../../core/decimal.js';
import { compareDecimals } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import type { RiskLimitTier } from '../market-stream/instruments.js';
import type { StepGrid } from '../market-stream/ticks.js';
import { scaledText } from '../market-stream/ticks.js';
import type { GridDecimals } from './grid-decimals.js';

/** One risk-limit tier's (fixed) text read once: its bound in lots, its rates as decimals. */
export interface TierFigures {
  readonly tier: RiskLimitTier;
  readonly maxQuantity: Decimal;
  /** `maxQuantity` in lots of the quantity grid; undefined off the grid (then compared as decimals). */
  readonly maxLots: number | undefined;
  readonly initialMarginRate: Decimal;
  readonly maintRate: Decimal;
  /** The maintenance rate's digits (`units × 10^−scale`, position-record's ScaledDigits) when a safe integer. */
  readonly maintRateDigits: { readonly units: number; readonly scale: number } | undefined;
}

/**
 * An instrument's risk-limit tiers for positions counted in lots: `tierFor(tiers, contracts)` without a
 * decimal of the lots or a text lookup per tier (every opening order and every new position size reads
 * them). A tier bound on the grid compares lots, the same order as the decimals' (both exact).
 */
export class RiskTiers {
  private readonly figures: readonly TierFigures[];

  constructor(
    tiers: readonly RiskLimitTier[],
    qty: StepGrid,
    private readonly qtyDecimals: GridDecimals,
  ) {
    this.figures = tiers.map((tier) => {
      const rate = scaledText(tier.maintMarginRate);
      return {
        tier,
        maxQuantity: decimalOfText(tier.maxQuantity),
        maxLots: qty.tryUnits(tier.maxQuantity),
        initialMarginRate: decimalOfText(tier.initialMarginRate),
        maintRate: decimalOfText(tier.maintMarginRate),
        maintRateDigits: rate === undefined ? undefined : { units: rate.units, scale: rate.decimals },
      };
    });
  }

  /** The tier of a position of `lots` (the last tier when beyond all), as `tierFor` finds it. */
  ofLots(lots: number): TierFigures {
    for (const t of this.figures) if (this.within(lots, t)) return t;
    const last = this.figures[this.figures.length - 1];
    if (last === undefined) throw new RangeError('instrument without risk-limit tiers');
    return last;
  }

  /** Whether a position of `lots` exceeds the last tier's bound (false without tiers). */
  beyondLast(lots: number): boolean {
    const last = this.figures[this.figures.length - 1];
    return last !== undefined && !this.within(lots, last);
  }

  private within(lots: number, t: TierFigures): boolean {
    return t.maxLots !== undefined ? lots <= t.maxLots : compareDecimals(this.qtyDecimals.of(lots), t.maxQuantity) <= 0;
  }
}
