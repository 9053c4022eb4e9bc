import { dec, Decimal } from 'stratd/strategy';
import type { PositionSide } from 'stratd/strategy';
import type { BracketParams } from './params.js';

export type StopKind = 'STOP_LOSS' | 'TAKE_PROFIT';

export interface StopTargets {
  readonly STOP_LOSS: Decimal | undefined;
  readonly TAKE_PROFIT: Decimal | undefined;
}

function pct(value: Decimal): Decimal {
  return value.div(100);
}

/** The price moved `fraction` in the position's favour (+) or against it (−) from `from`. */
function away(side: PositionSide, from: Decimal, fraction: Decimal): Decimal {
  return side === 'LONG' ? from.mul(dec(1).plus(fraction)) : from.mul(dec(1).minus(fraction));
}

/** The best price for the position seen so far, `price` included. */
export function bestPrice(side: PositionSide, best: Decimal | undefined, price: Decimal): Decimal {
  if (best === undefined) return price;
  return side === 'LONG' ? Decimal.max(best, price) : Decimal.min(best, price);
}

/**
 * Where the stops belong: the stop-loss at stopLossPct against the entry, raised (lowered for a short)
 * to trailingStopPct behind the best price once that is trailingActivationPct in profit; the
 * take-profit at takeProfitPct in favour of the entry. On the tick grid (nearest tick).
 */
export function stopTargets(side: PositionSide, entry: Decimal, best: Decimal, params: BracketParams, tick: Decimal): StopTargets {
  const onTick = (price: Decimal): Decimal => (tick.gt(0) ? price.toNearest(tick, Decimal.ROUND_HALF_UP) : price);
  let stop = params.stopLossPct.gt(0) ? away(side, entry, pct(params.stopLossPct).neg()) : undefined;
  const activated = side === 'LONG' ? best.gte(away(side, entry, pct(params.trailingActivationPct))) : best.lte(away(side, entry, pct(params.trailingActivationPct)));
  if (params.trailingStopPct.gt(0) && activated) {
    const trail = away(side, best, pct(params.trailingStopPct).neg());
    stop = stop === undefined ? trail : side === 'LONG' ? Decimal.max(stop, trail) : Decimal.min(stop, trail);
  }
  const take = params.takeProfitPct.gt(0) ? away(side, entry, pct(params.takeProfitPct)) : undefined;
  return { STOP_LOSS: stop === undefined ? undefined : onTick(stop), TAKE_PROFIT: take === undefined ? undefined : onTick(take) };
}

/** Whether the price has already passed a stop (it would trigger the wrong way if placed now). */
export function passed(side: PositionSide, kind: StopKind, trigger: Decimal, price: Decimal): boolean {
  const below = (side === 'LONG') === (kind === 'STOP_LOSS');
  return below ? price.lte(trigger) : price.gte(trigger);
}

/** A stop-loss move in the position's favour (up for a long). */
export function improves(side: PositionSide, from: Decimal, to: Decimal): boolean {
  return side === 'LONG' ? to.gt(from) : to.lt(from);
}
