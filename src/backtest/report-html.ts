import type { BacktestResult } from './backtest-types.js';
import type { PriceSeries, ReportChartData } from './report-data.js';
import { reportChartData } from './report-data.js';
import { REPORT_SCRIPT } from './report-script.js';
import type { OwnerFigures } from './summary.js';

/** Rows of the fills and orders tables; the CSV files hold them all. */
export const MAX_TABLE_ROWS = 500;

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2430;background:#fff}
h1{font-size:22px;margin:0 0 6px}h2{font-size:17px;margin:28px 0 8px}
.meta{color:#566;margin:2px 0}.note{color:#856404;background:#fff8e1;padding:4px 8px;display:inline-block}
table{border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums}
th,td{border:1px solid #dde;padding:3px 7px;text-align:right;white-space:nowrap}th{background:#f2f4f8}
td.l,th.l{text-align:left}.scroll{overflow-x:auto;max-width:100%}
figure{margin:0 0 10px}figcaption{color:#566;font-size:12px}
.chart-svg{max-width:960px;display:block}.plot{fill:#fbfcfe;stroke:#ccd}.grid{stroke:#e6e9ef}
.line{fill:none;stroke:#2563eb;stroke-width:1.4}figure[data-chart=drawdown] .line{stroke:#dc2626}
.tick{font-size:11px;fill:#667}.tick.y{text-anchor:end}.tick.end{text-anchor:end}.empty{text-anchor:middle;fill:#999}
.fill-marker.buy{fill:#16a34a}.fill-marker.sell{fill:#dc2626}.fill-marker{stroke:#fff;stroke-width:.5}
`;

/** `&<>"'` as entities: every text and attribute value of the page goes through this. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** JSON that cannot end its <script> element or start markup inside it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

type Cell = string | number | boolean | null;

function table(headers: readonly string[], rows: ReadonlyArray<readonly Cell[]>, leftColumns: number, what: string): string {
  const cls = (i: number): string => (i < leftColumns ? ' class="l"' : '');
  const head = `<tr>${headers.map((h, i) => `<th${cls(i)}>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const shown = rows.slice(0, MAX_TABLE_ROWS);
  const body = shown.map((row) => `<tr>${row.map((c, i) => `<td${cls(i)}>${escapeHtml(c === null ? '–' : String(c))}</td>`).join('')}</tr>`).join('\n');
  const note = rows.length > shown.length ? `<p class="note">Showing the first ${shown.length} of ${rows.length} ${escapeHtml(what)}; the CSV file has them all.</p>\n` : '';
  return `${note}<div class="scroll"><table>\n${head}\n${body}\n</table></div>`;
}

const SUMMARY_COLUMNS = ['', 'orders', 'fills', 'denied', 'rejected', 'volume', 'fees', 'funding', 'realized PnL', 'unrealized PnL', 'net PnL', 'final equity', 'return', 'max drawdown', 'Sharpe', 'Sortino', 'Calmar', 'win rate', 'exposure'];

function summaryRow(owner: string, f: OwnerFigures): Cell[] {
  return [owner, f.orders, f.fills, f.denied, f.rejected, f.volume, f.fees, f.funding, f.realizedPnl, f.unrealizedPnl, f.netPnl, f.finalEquity, f.return, f.maxDrawdown, f.sharpe, f.sortino, f.calmar, f.winRate, f.exposure];
}

function iso(time: number): string {
  return new Date(time).toISOString();
}

function figure(kind: string, caption: string, index?: number): string {
  const at = index === undefined ? '' : ` data-index="${index}"`;
  return `<figure data-chart="${kind}"${at}><figcaption>${escapeHtml(caption)}</figcaption></figure>`;
}

function priceFigures(charts: ReportChartData): string {
  if (charts.symbols.length === 0) return '<p class="meta">No symbol traded or priced.</p>';
  return charts.symbols
    .map((s, i) => {
      const capped = s.unmarked > 0 ? `; the first ${s.fills.length} marked, ${s.unmarked} more in fills.csv` : '';
      return `<h3>${escapeHtml(s.symbol)}</h3>\n${figure('price', `${s.source}; ${s.fills.length + s.unmarked} fills (▲ buy, ▼ sell)${capped}`, i)}`;
    })
    .join('\n');
}

/**
 * report.html: one self-contained page (inline CSS, inline script, data as embedded JSON; nothing
 * fetched). The same result and prices give the same bytes.
 */
export function reportHtml(result: BacktestResult, prices: readonly PriceSeries[] = []): string {
  const { summary } = result;
  const charts = reportChartData(result, prices);
  const strategies = Object.entries(summary.strategies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const fills = result.fills.map((f): Cell[] => [iso(f.time), f.strategy, f.symbol, f.clientOrderId, f.side, f.positionSide, f.isMaker ? 'maker' : 'taker', f.price.toFixed(), f.qty.toFixed(), f.fee.toFixed(), f.feeAsset, f.realizedPnl.toFixed()]);
  const orders = result.orders.map(({ createTime, strategy, order: o }): Cell[] => [iso(createTime), strategy, o.symbol, o.clientOrderId, o.side, o.positionSide, o.type, o.timeInForce, o.price.toFixed(), o.quantity.toFixed(), o.filledQty.toFixed(), o.avgPrice.toFixed(), o.status]);
  const meta = [
    `${summary.range.fromIso} → ${summary.range.toIso} · ${summary.events} market events · latency ${summary.latency.orderLatencyMs} ms out, ${summary.latency.ackLatencyMs} ms back`,
    `recordings: ${summary.recordings.map((r) => `${r.path} (${r.events} events)`).join(', ')}`,
    `account ${summary.account.userId}, initial equity ${summary.account.initialEquity} · fill sequence sha256 ${summary.fillsSha256}`,
    ...(summary.fillModel === undefined ? [] : [summary.fillModel]),
    ...summary.warnings.map((w) => `warning: ${w}`),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>stratd backtest ${escapeHtml(summary.range.fromIso)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>stratd backtest</h1>
${meta.map((m) => `<p class="meta">${escapeHtml(m)}</p>`).join('\n')}
<noscript><p class="note">The charts are drawn by the page's inline script; the tables need none.</p></noscript>
<h2>Summary</h2>
${table(SUMMARY_COLUMNS, [summaryRow('total', summary.total), ...strategies.map(([id, f]) => summaryRow(id, f))], 1, 'owners')}
<h2>Equity</h2>
${figure('equity', `account equity (wallet + unrealized PnL), sampled every ${summary.equityIntervalMs} ms`)}
<h2>Drawdown</h2>
${figure('drawdown', 'fall below the running peak of equity')}
<h2>Prices and fills</h2>
${priceFigures(charts)}
<h2>Fills</h2>
${table(['time', 'strategy', 'symbol', 'clientOrderId', 'side', 'positionSide', 'liquidity', 'price', 'qty', 'fee', 'feeAsset', 'realized PnL'], fills, 7, 'fills')}
<h2>Orders</h2>
${table(['created', 'strategy', 'symbol', 'clientOrderId', 'side', 'positionSide', 'type', 'timeInForce', 'price', 'quantity', 'filled', 'avgPrice', 'status'], orders, 8, 'orders')}
<script type="application/json" id="report-data">${scriptJson(charts)}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
