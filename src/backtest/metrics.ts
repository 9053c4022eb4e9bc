import type { Decimal } from '../core/decimal.js';
import { aboveZero, compareDecimals, dec } from '../core/decimal.js';

/** Crypto perpetuals trade around the clock: a year is 365 days of 24 hours. */
export const YEAR_MS = 365 * 86_400_000;

/**
 * Risk and return figures of an equity curve sampled every `intervalMs` (the last sample may be taken
 * early, at the end of the data: it counts for the return and the drawdown, not for the ratios).
 * - return: final / initial − 1;
 * - max drawdown: the largest fall from a running peak, as a fraction of that peak and as an amount;
 * - per-interval returns r = e(i) / e(i−1) − 1; periods per year P = YEAR_MS / intervalMs;
 * - Sharpe = mean(r) / sample stdev(r) × √P (risk-free rate 0);
 * - Sortino = mean(r) / √(mean(min(r, 0)²)) × √P (downside deviation over all periods, target 0);
 * - annualized return = mean(r) × P (arithmetic: a geometric one explodes on short runs);
 * - Calmar = annualized return / max drawdown.
 * A ratio whose denominator is zero (no variation, no loss, fewer than two returns) is undefined.
 */
export interface PerformanceFigures {
  readonly totalReturn: Decimal;
  readonly annualizedReturn: Decimal | undefined;
  readonly maxDrawdown: Decimal;
  readonly maxDrawdownAmount: Decimal;
  readonly sharpe: Decimal | undefined;
  readonly sortino: Decimal | undefined;
  readonly calmar: Decimal | undefined;
}

export interface EquityPoint {
  readonly equity: Decimal;
  readonly partial: boolean;
}

export function periodsPerYear(intervalMs: number): Decimal {
  return dec(YEAR_MS).div(intervalMs);
}

export function performanceOf(points: readonly EquityPoint[], intervalMs: number): PerformanceFigures {
  const first = points[0]?.equity;
  const last = points[points.length - 1]?.equity;
  const totalReturn = first === undefined || last === undefined || !first.gt(0) ? dec(0) : last.div(first).sub(1);
  const { fraction, amount } = maxDrawdownOf(points.map((p) => p.equity));
  const returns = periodReturns(points.filter((p) => !p.partial).map((p) => p.equity));
  const perYear = periodsPerYear(intervalMs);
  const mean = returns.length === 0 ? undefined : sum(returns).div(returns.length);
  const annualizedReturn = mean?.mul(perYear);
  const stdev = sampleStdev(returns, mean);
  const downside = returns.length === 0 ? undefined : sum(returns.map((r) => (r.lt(0) ? r.mul(r) : dec(0)))).div(returns.length).sqrt();
  return {
    totalReturn,
    annualizedReturn,
    maxDrawdown: fraction,
    maxDrawdownAmount: amount,
    sharpe: ratio(mean, stdev)?.mul(perYear.sqrt()),
    sortino: ratio(mean, downside)?.mul(perYear.sqrt()),
    calmar: ratio(annualizedReturn, fraction),
  };
}

/** Each sample's fall below the running peak, as a fraction of the peak (0 at a new high). */
export function drawdowns(equity: readonly Decimal[]): Decimal[] {
  let peak: Decimal | undefined;
  return equity.map((e) => {
    if (peak === undefined || e.gt(peak)) peak = e;
    return peak.gt(0) ? peak.sub(e).div(peak) : dec(0);
  });
}

/**
 * Comparisons by `compareDecimals` (`gt` makes a decimal of its argument), and a fall divided by its peak
 * only when there is one: at a peak (most samples of a flat account) the fall is 0, never above the
 * largest so far.
 */
function maxDrawdownOf(equity: readonly Decimal[]): { fraction: Decimal; amount: Decimal } {
  let peak: Decimal | undefined;
  let fraction = dec(0);
  let amount = dec(0);
  for (const e of equity) {
    if (peak === undefined || compareDecimals(e, peak) > 0) peak = e;
    if (e === peak) continue;
    const fall = peak.sub(e);
    if (compareDecimals(fall, amount) > 0) amount = fall;
    if (!aboveZero(fall) || !aboveZero(peak)) continue;
    const share = fall.div(peak);
    if (compareDecimals(share, fraction) > 0) fraction = share;
  }
  return { fraction, amount };
}

function periodReturns(equity: readonly Decimal[]): Decimal[] {
  const out: Decimal[] = [];
  for (let i = 1; i < equity.length; i++) {
    const before = equity[i - 1]!;
    if (aboveZero(before)) out.push(equity[i]!.div(before).sub(1));
  }
  return out;
}

function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((a, b) => a.add(b), dec(0));
}

function sampleStdev(values: readonly Decimal[], mean: Decimal | undefined): Decimal | undefined {
  if (mean === undefined || values.length < 2) return undefined;
  return sum(values.map((v) => v.sub(mean).pow(2))).div(values.length - 1).sqrt();
}

function ratio(top: Decimal | undefined, bottom: Decimal | undefined): Decimal | undefined {
  return top === undefined || bottom === undefined || bottom.isZero() ? undefined : top.div(bottom);
}
