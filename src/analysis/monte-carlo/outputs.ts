import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BacktestResult } from '../../backtest/types.js';
import { writeBacktestOutputs } from '../../report/outputs.js';
import type { PriceSeries } from '../../report/data.js';
import { MONTE_CARLO_FILES, monteCarloCsv, monteCarloJson } from './files.js';
import { monteCarloSection } from './report.js';
import type { MonteCarloRun } from './run-monte-carlo.js';

/**
 * Writes the backtest's files (its report.html with the Monte Carlo section) and montecarlo.json and
 * montecarlo.csv into `dir`; answers their paths.
 */
export function writeMonteCarloOutputs(dir: string, backtest: BacktestResult, run: MonteCarloRun, prices: readonly PriceSeries[]): string[] {
  const written = writeBacktestOutputs(dir, backtest, { prices, sections: [monteCarloSection(run.summary, run.outcomes)] });
  const files: Record<(typeof MONTE_CARLO_FILES)[number], string> = {
    'montecarlo.json': monteCarloJson(run.summary),
    'montecarlo.csv': monteCarloCsv(run.outcomes, run.summary.setup.ruinDrawdown),
  };
  for (const name of MONTE_CARLO_FILES) {
    const path = join(dir, name);
    writeFileSync(path, files[name]);
    written.push(path);
  }
  return written;
}
