import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BacktestResult } from '../backtest/types.js';
import { equityCsv, fillsCsv, ordersCsv } from './csv.js';
import type { PriceSeries } from './data.js';
import { reportHtml } from './html.js';
import { summaryJson } from '../backtest/summary.js';

export const OUTPUT_FILES = ['summary.json', 'fills.csv', 'orders.csv', 'equity.csv', 'report.html'] as const;

export interface OutputOptions {
  /** Candles for the report's price charts (`priceSeriesOf`); without them a symbol's chart joins its fill prices. */
  readonly prices?: readonly PriceSeries[];
}

/** The files of a backtest, by name: the same result (and prices) give the same bytes. */
export function backtestFiles(result: BacktestResult, options: OutputOptions = {}): Readonly<Record<(typeof OUTPUT_FILES)[number], string>> {
  return {
    'summary.json': summaryJson(result.summary),
    'fills.csv': fillsCsv(result.fills),
    'orders.csv': ordersCsv(result.orders),
    'equity.csv': equityCsv(result.equity, result.strategyIds),
    'report.html': reportHtml(result, options.prices),
  };
}

/** Writes summary.json, fills.csv, orders.csv, equity.csv and report.html into `dir` (created if needed); answers their paths. */
export function writeBacktestOutputs(dir: string, result: BacktestResult, options: OutputOptions = {}): string[] {
  mkdirSync(dir, { recursive: true });
  const files = backtestFiles(result, options);
  return OUTPUT_FILES.map((name) => {
    const path = join(dir, name);
    writeFileSync(path, files[name]);
    return path;
  });
}
