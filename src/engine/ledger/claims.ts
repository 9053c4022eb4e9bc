import type { PositionSide } from '../../model/instrument.js';

/**
 * A strategy's standing claim on what the external ledger holds (config `strategies[].claims`):
 * after each start-up reconciliation, the external holding of the symbol's sides moves to it.
 */
export interface LedgerClaim {
  readonly strategyId: string;
  readonly symbol: string;
  readonly sides: readonly PositionSide[];
}
