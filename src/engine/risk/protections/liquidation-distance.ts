import type { Decimal } from '../../../core/decimal.js';
import type { LiquidationDistanceSpec } from '../../../model/protections.js';
import type { Entry } from './protection.js';
import { BaseProtection, pct } from './protection.js';
import type { ScopeView } from './scope-view.js';

/**
 * Every covered position's liquidation price stays at least `minPct` percent from the mark price. An
 * entry on a side already that close is refused (adding to it brings the liquidation price closer).
 */
export class LiquidationDistance extends BaseProtection<LiquidationDistanceSpec> {
  override readonly standing = true;

  override breach(view: ScopeView): string | undefined {
    for (const p of view.positions()) {
      const distance = distancePct(view, p.symbol, p.positionSide);
      if (distance !== undefined && distance.lt(this.spec.minPct)) return `${p.symbol} ${p.positionSide} is ${pct(distance)}% from its liquidation price (min ${this.spec.minPct.toFixed()}%)`;
    }
    return undefined;
  }

  override admit(view: ScopeView, entry: Entry): string | undefined {
    const distance = distancePct(view, entry.symbol, entry.positionSide);
    if (distance === undefined || distance.gte(this.spec.minPct)) return undefined;
    return `${entry.symbol} ${entry.positionSide} is ${pct(distance)}% from its liquidation price (min ${this.spec.minPct.toFixed()}%): an entry would bring it closer`;
  }
}

/** |mark − liquidation price| / mark in percent, for the account's position side; undefined without either price. */
function distancePct(view: ScopeView, symbol: string, positionSide: 'LONG' | 'SHORT'): Decimal | undefined {
  const position = view.cache.position(symbol, positionSide);
  if (position === undefined || position.qty.isZero() || position.liquidationPrice === undefined || position.liquidationPrice.lte(0)) return undefined;
  const mark = view.cache.markPrice(symbol) ?? position.markPrice;
  if (mark === undefined || mark.lte(0)) return undefined;
  return mark.sub(position.liquidationPrice).abs().div(mark).mul(100);
}
