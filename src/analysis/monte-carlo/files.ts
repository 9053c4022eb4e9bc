import { csvLine } from '../../report/csv.js';
import type { MonteCarloSummary } from './summary.js';
import { ruined } from './summary.js';
import type { ScenarioOutcome } from './scenario-outcome.js';

export const MONTE_CARLO_FILES = ['montecarlo.json', 'montecarlo.csv'] as const;

/** montecarlo.json: the setup and each method's distributions (fixed key order: equal runs, equal bytes). */
export function monteCarloJson(summary: MonteCarloSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}

const COLUMNS = ['item', 'method', 'scenario', 'finalEquity', 'maxDrawdown', 'sharpe', 'trades', 'ruined'];

/** montecarlo.csv: one row per scenario, in item order. */
export function monteCarloCsv(outcomes: readonly ScenarioOutcome[], ruinDrawdown: number): string {
  return (
    csvLine(COLUMNS) +
    outcomes.map((o) => csvLine([o.item, o.method, o.index, o.finalEquity, o.maxDrawdown, o.sharpe ?? '', o.trades, ruined(o, ruinDrawdown)])).join('')
  );
}
