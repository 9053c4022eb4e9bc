import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { InvariantError } from '../../core/errors.js';
import type { PerformanceFigures } from '../../backtest/metrics.js';
import { performanceOf } from '../../backtest/metrics.js';
import type { CurvePoint } from '../types.js';

/** A point of the stitched out-of-sample curve, with the window it comes from (0-based). */
export interface StitchedPoint {
  readonly time: number;
  readonly window: number;
  readonly equity: Decimal;
  readonly partial: boolean;
}

export interface StitchedCurve {
  readonly points: readonly StitchedPoint[];
  /** Equity at the start of the first out-of-sample part. */
  readonly initialEquity: Decimal;
  readonly netPnl: Decimal;
  readonly figures: PerformanceFigures;
}

/**
 * The out-of-sample parts' equity curves joined into one: each part starts from the opening account
 * (a fresh backtest), so each one's PnL is added on where the previous one ended — the curve a trader
 * re-optimising at each window's end, keeping the account, would have seen. Figures as a backtest's
 * (metrics.ts) over the joined samples; a part's closing sample counts for drawdown, not for the ratios.
 */
export function stitchCurves(parts: ReadonlyArray<readonly CurvePoint[]>, intervalMs: number): StitchedCurve {
  const points: StitchedPoint[] = [];
  let level: Decimal | undefined;
  parts.forEach((curve, window) => {
    const first = curve[0];
    if (first === undefined) throw new InvariantError('WALK_FORWARD_CURVE', `out-of-sample part ${window + 1} has no equity sample`);
    const opening = dec(first.equity);
    const base = level ?? opening;
    for (const point of curve) points.push({ time: point.time, window, equity: base.add(dec(point.equity).sub(opening)), partial: point.partial });
    level = points[points.length - 1]!.equity;
  });
  const initialEquity = points[0]?.equity ?? dec(0);
  const last = points[points.length - 1]?.equity ?? initialEquity;
  return { points, initialEquity, netPnl: last.sub(initialEquity), figures: performanceOf(points, intervalMs) };
}
