import type { LeverageCapSpec } from '../../../model/protections.js';
import type { Entry } from './protection.js';
import { BaseProtection, pct } from './protection.js';
import type { ScopeView } from './scope-view.js';

/** The scope's gross notional over the account's equity (strategy scope: the strategy's positions over the account's equity). */
export class LeverageCap extends BaseProtection<LeverageCapSpec> {
  override readonly standing = true;

  override breach(view: ScopeView): string | undefined {
    const equity = view.accountEquity();
    if (equity === undefined) return undefined;
    const gross = view.gross();
    if (gross.isZero()) return undefined;
    if (equity.lte(0)) return `equity is ${equity.toFixed()}`;
    const leverage = gross.div(equity);
    return leverage.gt(this.spec.max) ? `leverage ${pct(leverage)} is above ${this.spec.max.toFixed()}` : undefined;
  }

  override admit(view: ScopeView, entry: Entry): string | undefined {
    const equity = view.accountEquity();
    if (equity === undefined) return 'no balance known yet';
    if (equity.lte(0)) return `equity is ${equity.toFixed()}`;
    if (entry.notional === undefined) return `no price of ${entry.symbol} known to value the entry`;
    const leverage = view.gross().add(entry.notional).div(equity);
    return leverage.gt(this.spec.max) ? `this entry would bring leverage to ${pct(leverage)} (max ${this.spec.max.toFixed()})` : undefined;
  }
}
