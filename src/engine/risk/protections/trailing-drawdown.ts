import type { Decimal } from '../../../core/decimal.js';
import type { TrailingDrawdownSpec } from '../../../model/protections.js';
import { BaseProtection, pct } from './protection.js';
import type { ScopeView } from './scope-view.js';

/**
 * Equity falls from its peak since start (or since the last trip ended) by `maxPct` percent or
 * `maxAmount` quote units. Global: the account's equity; strategy: `capital` (default the account's
 * equity when first seen) plus the strategy's realized and unrealized PnL.
 */
export class TrailingDrawdown extends BaseProtection<TrailingDrawdownSpec> {
  private readonly peaks = new Map<string, Decimal>();
  private readonly capitals = new Map<string, Decimal>();

  override breach(view: ScopeView): string | undefined {
    const equity = this.equity(view);
    if (equity === undefined) return undefined;
    const peak = this.peaks.get(view.scopeKey);
    if (peak === undefined || equity.gt(peak)) {
      this.peaks.set(view.scopeKey, equity);
      return undefined;
    }
    const drop = peak.sub(equity);
    if (this.spec.maxAmount !== undefined && drop.gte(this.spec.maxAmount)) {
      return `equity ${equity.toDecimalPlaces(8).toFixed()} is ${drop.toDecimalPlaces(8).toFixed()} below its peak ${peak.toDecimalPlaces(8).toFixed()} (max ${this.spec.maxAmount.toFixed()})`;
    }
    if (this.spec.maxPct !== undefined && peak.gt(0)) {
      const dropPct = drop.div(peak).mul(100);
      if (dropPct.gte(this.spec.maxPct)) return `equity ${equity.toDecimalPlaces(8).toFixed()} is ${pct(dropPct)}% below its peak ${peak.toDecimalPlaces(8).toFixed()} (max ${this.spec.maxPct.toFixed()}%)`;
    }
    return undefined;
  }

  override reset(view: ScopeView): void {
    const equity = this.equity(view);
    if (equity === undefined) this.peaks.delete(view.scopeKey);
    else this.peaks.set(view.scopeKey, equity);
  }

  private equity(view: ScopeView): Decimal | undefined {
    if (view.global) return view.accountEquity();
    let capital = this.spec.capital ?? this.capitals.get(view.scopeKey);
    if (capital === undefined) {
      capital = view.accountEquity();
      if (capital === undefined) return undefined;
      this.capitals.set(view.scopeKey, capital);
    }
    return capital.add(view.strategyPnl());
  }
}
