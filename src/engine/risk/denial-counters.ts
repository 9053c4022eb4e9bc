import type { DenialCode } from '../../model/denials.js';

/** Denials by code, overall and per strategy (metric labels). */
export class DenialCounters {
  private readonly total = new Map<DenialCode, number>();
  private readonly byStrategy = new Map<string, Map<DenialCode, number>>();

  record(strategyId: string, code: DenialCode): void {
    this.total.set(code, (this.total.get(code) ?? 0) + 1);
    let own = this.byStrategy.get(strategyId);
    if (own === undefined) {
      own = new Map();
      this.byStrategy.set(strategyId, own);
    }
    own.set(code, (own.get(code) ?? 0) + 1);
  }

  /** A copy: counters keep counting after it is taken. */
  all(): ReadonlyMap<DenialCode, number> {
    return new Map(this.total);
  }

  of(strategyId: string): ReadonlyMap<DenialCode, number> {
    return new Map(this.byStrategy.get(strategyId) ?? []);
  }
}
