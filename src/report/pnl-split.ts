import type { Cell } from './page.js';
import { escapeHtml, table } from './page.js';
import type { BacktestSummary } from '../backtest/summary.js';

const SPLIT_COLUMNS = ['', 'trading PnL', 'fees paid', 'funding (+ received)', 'net PnL'];
const SERIES_COLUMNS = ['symbol', 'funding events', 'settlements', 'series'];

/**
 * The report's "PnL split" section: trading PnL (realized + unrealized), fees and funding per owner,
 * and the funding series each symbol was settled from, its warnings shown, never a silent zero.
 */
export function pnlSplitSection(summary: BacktestSummary): string {
  const owners = [['total', summary.total] as const, ...Object.entries(summary.strategies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))];
  const split = owners.map(([owner, f]): Cell[] => [owner, f.tradingPnl, f.fees, f.funding, f.netPnl]);
  const series = Object.entries(summary.fundingSeries).map(([symbol, s]): Cell[] => [symbol, s.events, s.settlements, s.status]);
  const warnings = Object.values(summary.fundingSeries).flatMap((s) => (s.warning === undefined ? [] : [`<p class="note">${escapeHtml(s.warning)}</p>`]));
  return `<h2>PnL split</h2>
<p class="meta">net PnL = trading PnL (realized + unrealized) − fees + funding; funding is settled from the recorded funding series at each funding time on the position then held</p>
${table(SPLIT_COLUMNS, split, 1, 'owners', 'summary.json', ' data-table="pnl-split"')}
${warnings.join('\n')}${warnings.length > 0 ? '\n' : ''}${table(SERIES_COLUMNS, series, 1, 'symbols', 'summary.json', ' data-table="funding-series"')}`;
}
