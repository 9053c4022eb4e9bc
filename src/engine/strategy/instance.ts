import type { PositionSide } from '../../model/instrument.js';
import type { RiskLimits } from '../../model/risk-limits.js';
import type { StrategyDefinition } from './api.js';

/** One configured strategy: its module, validated params, symbols and risk budget. */
export interface StrategyInstance {
  readonly id: string;
  readonly symbols: readonly string[];
  readonly definition: StrategyDefinition;
  /** Already validated by the definition's params schema. */
  readonly params: unknown;
  readonly limits: RiskLimits;
  /** Config `claims:`: what the external ledger holds on these symbol sides becomes this instance's at start. */
  readonly claims?: ReadonlyArray<{ readonly symbol: string; readonly sides: readonly PositionSide[] }>;
}
