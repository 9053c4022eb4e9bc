import type { Decimal } from '../../core/decimal.js';
import type { Indicator } from './indicator.js';

/** `up`: a went from at or below b to above it on the newest kline; `down` the mirror image. */
export type Crossing = 'up' | 'down';

/** Whether `a` crossed `b` on the newest closed kline (both must have been fed that same kline). */
export function crossing(a: Indicator<Decimal>, b: Indicator<Decimal>): Crossing | undefined {
  const [a0, a1, b0, b1] = [a.previous(), a.value(), b.previous(), b.value()];
  if (a0 === undefined || a1 === undefined || b0 === undefined || b1 === undefined || a.lastOpenTime !== b.lastOpenTime) return undefined;
  if (a0.lte(b0) && a1.gt(b1)) return 'up';
  if (a0.gte(b0) && a1.lt(b1)) return 'down';
  return undefined;
}
