import { assertNever, InvariantError } from '../../../core/errors.js';
import type { ProtectionSpec } from '../../../model/protections.js';
import { Cooldown } from './cooldown.js';
import { LeverageCap } from './leverage-cap.js';
import { LiquidationDistance } from './liquidation-distance.js';
import { MarginRatioCap } from './margin-ratio-cap.js';
import { NotionalCap } from './notional-cap.js';
import type { Protection } from './protection.js';
import { StopLossStreak } from './stop-loss-streak.js';
import { TrailingDrawdown } from './trailing-drawdown.js';

/** The protection of a configured spec (the daily loss limit is the kill switch's, not one of these). */
export function makeProtection(spec: ProtectionSpec): Protection {
  switch (spec.kind) {
    case 'trailingDrawdown':
      return new TrailingDrawdown(spec);
    case 'stopLossStreak':
      return new StopLossStreak(spec);
    case 'cooldown':
      return new Cooldown(spec);
    case 'notionalCap':
      return new NotionalCap(spec);
    case 'leverageCap':
      return new LeverageCap(spec);
    case 'marginRatioCap':
      return new MarginRatioCap(spec);
    case 'liquidationDistance':
      return new LiquidationDistance(spec);
    case 'dailyLoss':
      throw new InvariantError('PROTECTION_KIND', 'the daily loss limit is the kill switch, not a watched protection');
    default:
      return assertNever(spec, 'protection spec');
  }
}
