import type { BacktestResult, FillRecord, OrderRow } from '../backtest/types.js';
import type { PriceSeries, ReportPageData, ReportTab } from './data.js';
import { ALL_TAB, fillOwner, reportPageData } from './data.js';
import type { Cell } from './page.js';
import { escapeHtml, iso, page, table, tableOf } from './page.js';
import { REPORT_SCRIPT } from './script.js';
import { dataQualitySection } from './data-quality.js';
import { pnlSplitSection } from './pnl-split.js';
import type { OwnerFigures } from '../backtest/summary.js';

export { escapeHtml, MAX_TABLE_ROWS, scriptJson } from './page.js';

const SUMMARY_COLUMNS = ['', 'orders', 'fills', 'denied', 'rejected', 'volume', 'fees', 'funding', 'realized PnL', 'unrealized PnL', 'net PnL', 'final equity', 'return', 'max drawdown', 'Sharpe', 'Sortino', 'Calmar', 'win rate', 'exposure'];

function summaryRow(owner: string, f: OwnerFigures): Cell[] {
  return [owner, f.orders, f.fills, f.denied, f.rejected, f.volume, f.fees, f.funding, f.realizedPnl, f.unrealizedPnl, f.netPnl, f.finalEquity, f.return, f.maxDrawdown, f.sharpe, f.sortino, f.calmar, f.winRate, f.exposure];
}

const FILL_COLUMNS = ['time', 'strategy', 'symbol', 'clientOrderId', 'side', 'positionSide', 'liquidity', 'price', 'qty', 'fee', 'feeAsset', 'realized PnL'];
const ORDER_COLUMNS = ['created', 'strategy', 'symbol', 'clientOrderId', 'side', 'positionSide', 'type', 'timeInForce', 'price', 'quantity', 'filled', 'avgPrice', 'status'];

export function fillCells(f: FillRecord): Cell[] {
  return [iso(f.time), f.strategy, f.symbol, f.clientOrderId, f.side, f.positionSide, f.isMaker ? 'maker' : 'taker', f.price.toFixed(), f.qty.toFixed(), f.fee.toFixed(), f.feeAsset, f.realizedPnl.toFixed()];
}

function orderCells({ createTime, strategy, order: o }: OrderRow): Cell[] {
  return [iso(createTime), strategy, o.symbol, o.clientOrderId, o.side, o.positionSide, o.type, o.timeInForce, o.price.toFixed(), o.quantity.toFixed(), o.filledQty.toFixed(), o.avgPrice.toFixed(), o.status];
}

export function fillsTable(fills: readonly FillRecord[], csv = 'fills.csv'): string {
  return tableOf(FILL_COLUMNS, fills, fillCells, 7, 'fills', csv, ' data-table="fills"');
}

/** The tab bar and, per tab, its charts (drawn by the script when the tab is first shown) and `tables`. */
export function tabbedCharts(data: ReportPageData, tables: (tab: ReportTab) => string): string {
  const legend = data.runs.map((run, i) => `<span class="${i === 0 ? 'buy' : 'buy2'}">▲ ${escapeHtml(run)} buy</span><span class="${i === 0 ? 'sell' : 'sell2'}">▼ ${escapeHtml(run)} sell</span>`).join('');
  const bar = `<div class="tabs" role="tablist">${data.tabs.map((t) => `<button class="tab" role="tab" data-tab="${escapeHtml(t.id)}" aria-selected="false">${escapeHtml(t.label)}</button>`).join('')}</div>`;
  const panes = data.tabs.map((t) => {
    const symbols = t.symbols.map((s, i) => {
      const prices = data.prices[s.symbol];
      const source = prices === undefined ? 'no market prices recorded: the line joins the fill prices' : prices.source;
      const capped = s.unmarked > 0 ? `; the first ${s.fills.length} marked, ${s.unmarked} more in fills.csv` : '';
      const stops = s.stops.length > 0 ? `, ${s.stops.length} TP/SL or plan orders (● placed at the trigger, ■ triggered)` : '';
      return `<figure><figcaption><b>${escapeHtml(s.symbol)}</b> · ${escapeHtml(source)}; ${s.fills.length + s.unmarked} fills${escapeHtml(capped)}${stops}</figcaption><div class="chart" data-chart="price" data-index="${i}"></div></figure>`;
    });
    return `<section class="pane" data-pane="${escapeHtml(t.id)}" role="tabpanel" hidden>
<p class="legend meta">${legend}<span>drag to pan, wheel to zoom; the charts of a tab move together</span></p>
<h2>Prices and fills</h2>
${symbols.length === 0 ? '<p class="meta">No symbol traded or priced.</p>' : symbols.join('\n')}
<h2>Equity</h2>
<figure><figcaption>${escapeHtml(t.equityCaption)}</figcaption><div class="chart" data-chart="equity"></div></figure>
<figure><figcaption>drawdown: fall below the running peak of that equity</figcaption><div class="chart" data-chart="drawdown"></div></figure>
${tables(t)}
</section>`;
  });
  return `${bar}\n${panes.join('\n')}`;
}

/**
 * report.html of a backtest: one self-contained page (see report-page.ts). The same result and prices
 * give the same bytes.
 */
export function reportHtml(result: BacktestResult, prices: readonly PriceSeries[] = [], sections: readonly string[] = []): string {
  const { summary } = result;
  const data = reportPageData(result, prices);
  const strategies = Object.entries(summary.strategies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const owns = (tab: ReportTab) => (strategy: string): boolean => tab.id === ALL_TAB || strategy === tab.id;
  const owner = fillOwner(result.algoOrders);
  const tables = (tab: ReportTab): string => `<h2>Fills</h2>
${fillsTable(result.fills.filter((f) => owns(tab)(owner(f))))}
<h2>Orders</h2>
${tableOf(ORDER_COLUMNS, result.orders.filter((o) => owns(tab)(o.strategy)), orderCells, 8, 'orders', 'orders.csv', ' data-table="orders"')}`;
  return page({
    title: `stratd backtest ${summary.range.fromIso}`,
    heading: 'stratd backtest',
    meta: [
      `${summary.range.fromIso} → ${summary.range.toIso} · ${summary.events} market events · latency ${summary.latency.orderLatencyMs} ms out, ${summary.latency.ackLatencyMs} ms back`,
      `recordings: ${summary.recordings.map((r) => `${r.path} (${r.events} events)`).join(', ')}`,
      `account ${summary.account.userId}, initial equity ${summary.account.initialEquity} · fill sequence sha256 ${summary.fillsSha256}`,
      ...(summary.fillModel === undefined ? [] : [summary.fillModel]),
      ...summary.warnings.map((w) => `warning: ${w}`),
    ],
    body: `<h2>Summary</h2>
${table(SUMMARY_COLUMNS, [summaryRow('total', summary.total), ...strategies.map(([id, f]) => summaryRow(id, f))], 1, 'owners', 'summary.json')}
${pnlSplitSection(summary)}
${dataQualitySection(summary.dataQuality)}
${sections.map((section) => `${section}
`).join('')}${tabbedCharts(data, tables)}`,
    data,
    script: REPORT_SCRIPT,
  });
}
