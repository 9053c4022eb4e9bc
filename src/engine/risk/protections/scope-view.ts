import type { Decimal } from '../../../core/decimal.js';
import { dec } from '../../../core/decimal.js';
import type { CacheView } from '../../../model/cache-view.js';
import { GLOBAL_SCOPE } from '../../../model/protections.js';
import type { OwnPosition, StrategyFigures } from './strategy-figures.js';

/** A position valued at mark: signed notional (long positive, short negative) in quote units. */
export interface ValuedPosition extends OwnPosition {
  readonly notional: Decimal;
}

/**
 * The figures of one scope at one moment: the account's ('global') or one strategy's own (its fills).
 * Account-wide quantities (equity, margin) are the account's in both.
 */
export class ScopeView {
  private valued: readonly ValuedPosition[] | undefined;

  constructor(
    readonly scopeKey: string,
    readonly now: number,
    readonly cache: CacheView,
    private readonly figures: StrategyFigures,
  ) {}

  get global(): boolean {
    return this.scopeKey === GLOBAL_SCOPE;
  }

  /** The scope's open positions at mark. */
  positions(): readonly ValuedPosition[] {
    if (this.valued !== undefined) return this.valued;
    const own: readonly OwnPosition[] = this.global
      ? this.cache.positions().filter((p) => p.qty.gt(0)).map((p) => ({ symbol: p.symbol, positionSide: p.positionSide, qty: p.qty, avgPrice: p.avgPrice }))
      : this.figures.positions(this.scopeKey);
    const valued: ValuedPosition[] = [];
    for (const p of own) {
      const instrument = this.cache.instrument(p.symbol);
      if (instrument === undefined) continue;
      const price = this.cache.markPrice(p.symbol) ?? p.avgPrice;
      const size = p.qty.mul(price).mul(instrument.contractMultiplier);
      valued.push({ ...p, notional: p.positionSide === 'LONG' ? size : size.neg() });
    }
    this.valued = valued;
    return valued;
  }

  /** Sum of |notional|. */
  gross(): Decimal {
    return this.positions().reduce((sum, p) => sum.add(p.notional.abs()), dec(0));
  }

  /** Long minus short notional (signed). */
  net(): Decimal {
    return this.positions().reduce((sum, p) => sum.add(p.notional), dec(0));
  }

  /**
   * The account's equity: wallet balances plus the open positions' unrealized PnL at the latest mark
   * (balance events may come less often than marks); undefined before any balance is known.
   */
  accountEquity(): Decimal | undefined {
    const balances = this.cache.balances();
    if (balances.length === 0) return undefined;
    let equity = balances.reduce((sum, b) => sum.add(b.walletBalance), dec(0));
    for (const p of this.cache.positions()) {
      if (p.qty.isZero()) continue;
      const instrument = this.cache.instrument(p.symbol);
      const mark = this.cache.markPrice(p.symbol);
      if (instrument === undefined || mark === undefined) {
        equity = equity.add(p.unrealizedPnl);
        continue;
      }
      const move = p.positionSide === 'LONG' ? mark.sub(p.avgPrice) : p.avgPrice.sub(mark);
      equity = equity.add(move.mul(p.qty).mul(instrument.contractMultiplier));
    }
    return equity;
  }

  /** Margin in use (position and order margin) over the account's margin assets. */
  marginInUse(): Decimal {
    return this.cache.balances().reduce((sum, b) => sum.add(b.lockedMargin), dec(0));
  }

  /** The strategy's PnL since start (strategy scope only). */
  strategyPnl(): Decimal {
    return this.figures.pnl(this.scopeKey);
  }
}
