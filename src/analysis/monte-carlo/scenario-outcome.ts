import type { MonteCarloMethod } from './scenario-items.js';

/** What one scenario ended with. Money is decimal text, ratios numbers (6 decimals) as in summary.json. */
export interface ScenarioOutcome {
  readonly item: number;
  readonly method: MonteCarloMethod;
  readonly index: number;
  readonly finalEquity: string;
  /** Largest fall from a running peak, as a fraction of that peak. */
  readonly maxDrawdown: number;
  /** Annualized as the backtest's (per equity interval); null when undefined (no variation). */
  readonly sharpe: number | null;
  /** Closed trades (shuffle) or fills (bootstrap) the scenario counted. */
  readonly trades: number;
}
