import type { BacktestResult, FillRecord, OrderRow } from '../backtest/types.js';
import type { ParityDivergence, ParityReport, ParityRow, SequenceComparison } from './compare.js';
import { ALL_TAB, fillOwner, pageData } from '../report/data.js';
import type { PriceSeries, ReportTab } from '../report/data.js';
import { fillsTable, tabbedCharts } from '../report/html.js';
import type { Cell } from '../report/page.js';
import { escapeHtml, iso, page, table } from '../report/page.js';
import { REPORT_SCRIPT } from '../report/script.js';

/** The CSV files beside a parity report.html: each side's fills in full. */
export const PARITY_FILLS_CSV = { paper: 'paper-fills.csv', backtest: 'backtest-fills.csv' } as const;

export interface ParityReportInput {
  readonly report: ParityReport;
  /** What the paper daemon's account did on the simulator. */
  readonly paper: { readonly fills: readonly FillRecord[]; readonly orders: readonly OrderRow[] };
  readonly backtest: BacktestResult;
  /** Candles of the recording (`priceSeriesOf`). */
  readonly prices: readonly PriceSeries[];
}

function side(row: ParityRow | undefined): Cell[] {
  return row === undefined ? [null, null, null, null, null] : [iso(row.time), row.strategy, row.side, row.price, row.qty];
}

function divergences(what: string, comparison: SequenceComparison): string {
  const rows = comparison.divergences.map((d: ParityDivergence): Cell[] => [d.index + 1, d.kind, d.fields.join(' '), ...side(d.live), ...side(d.backtest)]);
  const head = `<p class="meta">${escapeHtml(what)}: ${comparison.live} on paper, ${comparison.backtest} in the backtest; ${comparison.matched} leading ones agree, ${comparison.divergent} positions differ${comparison.divergent > rows.length ? ` (the first ${rows.length} listed)` : ''}.</p>`;
  if (rows.length === 0) return head;
  const headers = ['#', 'kind', 'differs in', 'paper time', 'strategy', 'side', 'price', 'qty', 'backtest time', 'strategy', 'side', 'price', 'qty'];
  return `${head}\n${table(headers, rows, 3, 'divergences', 'the console output', ` data-table="${escapeHtml(what)}-divergences"`)}`;
}

/**
 * report.html of `stratd parity`: both runs' fills on the recording's candles (paper ▲▼ green/red,
 * backtest blue/orange), the backtest's equity, the divergences, and each side's fills (the CSVs
 * beside it hold them all). Tabs per strategy as in the backtest report.
 */
export function parityReportHtml(input: ParityReportInput): string {
  const { report, paper, backtest } = input;
  const data = pageData(
    backtest,
    [
      { label: 'paper', fills: paper.fills, orders: paper.orders, algoOrders: [] },
      { label: 'backtest', fills: backtest.fills, orders: backtest.orders, algoOrders: backtest.algoOrders },
    ],
    input.prices,
  );
  const owner = fillOwner(backtest.algoOrders);
  const owns = (tab: ReportTab) => (f: FillRecord): boolean => tab.id === ALL_TAB || owner(f) === tab.id;
  const tables = (tab: ReportTab): string => `<h2>Paper fills</h2>
${fillsTable(paper.fills.filter(owns(tab)), PARITY_FILLS_CSV.paper)}
<h2>Backtest fills</h2>
${fillsTable(backtest.fills.filter(owns(tab)), PARITY_FILLS_CSV.backtest)}`;
  const verdict = report.identical ? `identical: ${report.fills.live} fills and ${report.orders.live} orders on both sides` : 'DIVERGENT';
  return page({
    title: 'stratd parity',
    heading: `stratd parity: ${verdict}`,
    meta: [
      `time tolerance ${report.toleranceMs} ms · ${backtest.summary.range.fromIso} → ${backtest.summary.range.toIso} · recording ${backtest.summary.recordings.map((r) => r.path).join(', ')}`,
      'equity and drawdown: the backtest\'s; markers: both runs\' fills',
    ],
    body: `<h2>Divergences</h2>
${divergences('fills', report.fills)}
${divergences('orders placed', report.orders)}
${tabbedCharts(data, tables)}`,
    data,
    script: REPORT_SCRIPT,
  });
}
