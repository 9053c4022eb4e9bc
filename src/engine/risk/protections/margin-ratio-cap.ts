import type { Decimal } from '../../../core/decimal.js';
import type { MarginRatioCapSpec } from '../../../model/protections.js';
import { BaseProtection, pct } from './protection.js';
import type { ScopeView } from './scope-view.js';

/**
 * Margin in use (position and order margin of the account) over the account's equity, in percent. An
 * account-wide figure in either scope: entries are refused while it is at or above `maxPct`.
 */
export class MarginRatioCap extends BaseProtection<MarginRatioCapSpec> {
  override readonly standing = true;

  override breach(view: ScopeView): string | undefined {
    const ratio = marginRatio(view);
    return ratio !== undefined && ratio.gt(this.spec.maxPct) ? `margin ratio ${pct(ratio)}% is above ${this.spec.maxPct.toFixed()}%` : undefined;
  }

  override admit(view: ScopeView): string | undefined {
    const ratio = marginRatio(view);
    return ratio !== undefined && ratio.gte(this.spec.maxPct) ? `margin ratio ${pct(ratio)}% is at or above ${this.spec.maxPct.toFixed()}%` : undefined;
  }
}

function marginRatio(view: ScopeView): Decimal | undefined {
  const equity = view.accountEquity();
  if (equity === undefined) return undefined;
  const used = view.marginInUse();
  if (used.isZero()) return undefined;
  return equity.lte(0) ? used.mul(100) : used.div(equity).mul(100);
}
