import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BacktestResult } from './backtest-types.js';
import { equityCsv, fillsCsv, ordersCsv } from './csv.js';
import { summaryJson } from './summary.js';

export const OUTPUT_FILES = ['summary.json', 'fills.csv', 'orders.csv', 'equity.csv'] as const;

/** The files of a backtest, by name: the same result gives the same bytes. */
export function backtestFiles(result: BacktestResult): Readonly<Record<(typeof OUTPUT_FILES)[number], string>> {
  return {
    'summary.json': summaryJson(result.summary),
    'fills.csv': fillsCsv(result.fills),
    'orders.csv': ordersCsv(result.orders),
    'equity.csv': equityCsv(result.equity, result.strategyIds),
  };
}

/** Writes summary.json, fills.csv, orders.csv and equity.csv into `dir` (created if needed); answers their paths. */
export function writeBacktestOutputs(dir: string, result: BacktestResult): string[] {
  mkdirSync(dir, { recursive: true });
  const files = backtestFiles(result);
  return OUTPUT_FILES.map((name) => {
    const path = join(dir, name);
    writeFileSync(path, files[name]);
    return path;
  });
}
