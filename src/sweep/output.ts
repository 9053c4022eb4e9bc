import { dec } from '../core/decimal.js';
import { csvLine } from '../report/csv.js';
import type { SweepAxis, SweepMetrics, SweepRow } from './types.js';
import { axisName } from './types.js';

export const RANK_METRICS = ['netPnl', 'return', 'sharpe', 'sortino', 'maxDrawdown', 'fills', 'fees'] as const;
export type RankMetric = (typeof RANK_METRICS)[number];

const METRIC_COLUMNS = ['netPnl', 'return', 'maxDrawdown', 'sharpe', 'sortino', 'orders', 'fills', 'fees', 'fillsSha256'] as const satisfies ReadonlyArray<keyof SweepMetrics>;

/** sweep.csv: one line per combination in combination order; the varied values, then the metrics. */
export function sweepCsv(axes: readonly SweepAxis[], rows: readonly SweepRow[]): string {
  const header = ['combination', ...axes.map(axisName), ...METRIC_COLUMNS];
  return csvLine(header) + rows.map((row) => csvLine([row.index + 1, ...row.values.map(cell), ...METRIC_COLUMNS.map((m) => cell(row.metrics[m]))])).join('');
}

/** Best first by `metric` (smaller is better for drawdown and fees; a missing ratio comes last); ties by combination. */
export function rankRows(rows: readonly SweepRow[], metric: RankMetric): SweepRow[] {
  const lowerIsBetter = metric === 'maxDrawdown' || metric === 'fees';
  const score = (row: SweepRow): number | undefined => {
    const value = row.metrics[metric];
    if (value === null) return undefined;
    return typeof value === 'string' ? dec(value).toNumber() : value;
  };
  return [...rows].sort((a, b) => {
    const x = score(a);
    const y = score(b);
    if (x === undefined || y === undefined) return x === y ? a.index - b.index : x === undefined ? 1 : -1;
    const diff = lowerIsBetter ? x - y : y - x;
    return diff !== 0 ? diff : a.index - b.index;
  });
}

/** A plain-text table of the ranked rows, aligned in columns. */
export function rankedTable(axes: readonly SweepAxis[], ranked: readonly SweepRow[], metric: RankMetric): string {
  const header = ['rank', '#', ...axes.map(axisName), 'netPnl', 'return', 'maxDD', 'sharpe', 'sortino', 'fills', 'fees'];
  const body = ranked.map((row, i) => {
    const m = row.metrics;
    return [String(i + 1), String(row.index + 1), ...row.values.map(cell), m.netPnl, cell(m.return), cell(m.maxDrawdown), cell(m.sharpe), cell(m.sortino), String(m.fills), m.fees];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((text, c) => text.padEnd(widths[c] ?? 0)).join('  ').trimEnd();
  return `ranked by ${metric}\n${[header, ...body].map(line).join('\n')}\n`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
