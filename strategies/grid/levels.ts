import { dec, Decimal } from 'stratd/strategy';
import type { GridParams } from './params.js';

/**
 * The grid's prices, lowest first, on the instrument's tick grid. Throws a RangeError when two levels
 * fall on the same tick (the range is too narrow for that many levels).
 */
export function gridLevels(params: Pick<GridParams, 'lower' | 'upper' | 'levels' | 'spacing'>, tickSize: Decimal): Decimal[] {
  const { lower, upper, levels, spacing } = params;
  const steps = levels - 1;
  const ratio = upper.div(lower).pow(dec(1).div(steps));
  const step = upper.minus(lower).div(steps);
  const prices: Decimal[] = [];
  for (let i = 0; i <= steps; i++) {
    const raw = i === steps ? upper : spacing === 'arithmetic' ? lower.plus(step.mul(i)) : lower.mul(ratio.pow(i));
    prices.push(tickSize.gt(0) ? raw.toNearest(tickSize, Decimal.ROUND_HALF_UP) : raw);
  }
  for (let i = 1; i < prices.length; i++) {
    if (!prices[i]!.gt(prices[i - 1]!)) {
      throw new RangeError(`grid levels ${i - 1} and ${i} fall on the same tick (${prices[i]!.toFixed()}): widen the range or use fewer levels`);
    }
  }
  return prices;
}
