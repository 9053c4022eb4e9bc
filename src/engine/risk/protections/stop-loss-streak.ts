import type { StopLossStreakSpec } from '../../../model/protections.js';
import type { Exit } from './protection.js';
import { BaseProtection } from './protection.js';
import type { ScopeView } from './scope-view.js';

/**
 * `count` losing exits (closing orders whose fills realized a loss after fees) within `windowMs`. A
 * winning exit ends the streak; fills of one order count once.
 */
export class StopLossStreak extends BaseProtection<StopLossStreakSpec> {
  private readonly losses = new Map<string, Map<string, number>>();

  override onExit(scopeKey: string, exit: Exit): string | undefined {
    let streak = this.losses.get(scopeKey);
    if (streak === undefined) {
      streak = new Map();
      this.losses.set(scopeKey, streak);
    }
    if (exit.pnl.gte(0)) {
      if (!streak.has(exit.orderId)) streak.clear();
      return undefined;
    }
    streak.set(exit.orderId, exit.time);
    for (const [orderId, time] of streak) if (time <= exit.time - this.spec.windowMs) streak.delete(orderId);
    if (streak.size < this.spec.count) return undefined;
    return `${streak.size} losing exits within ${this.spec.windowMs / 1000}s (max ${this.spec.count - 1})`;
  }

  override reset(view: ScopeView): void {
    this.losses.delete(view.scopeKey);
  }
}
