import { chartLibraryScript } from '../core/chart-library.js';

/**
 * The frame of every report page (backtest, sweep, parity): one self-contained file — inline CSS, the
 * chart library and the page's script inline, data as embedded JSON; nothing is fetched — and the
 * escaping and table helpers its parts share.
 */

/** Rows of a table in the page; the CSV files hold them all. */
export const MAX_TABLE_ROWS = 100;

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2430;background:#fff}
h1{font-size:22px;margin:0 0 6px}h2{font-size:17px;margin:24px 0 8px}h3{font-size:15px;margin:16px 0 4px}
.meta{color:#566;margin:2px 0}.note{color:#856404;background:#fff8e1;padding:4px 8px;display:inline-block;margin:4px 0}
table{border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums}
th,td{border:1px solid #dde;padding:3px 7px;text-align:right;white-space:nowrap}th{background:#f2f4f8;position:sticky;top:0}
td.l,th.l{text-align:left}.scroll{overflow:auto;max-width:100%;max-height:420px}
figure{margin:0 0 12px;max-width:1200px}figcaption{color:#566;font-size:12px;margin:2px 0}
.chart{width:100%;border:1px solid #e3e6ec}
.tabs{display:flex;gap:4px;flex-wrap:wrap;border-bottom:2px solid #dde;margin:20px 0 0}
.tab{font:inherit;border:1px solid #dde;border-bottom:none;background:#f2f4f8;padding:6px 14px;cursor:pointer;border-radius:6px 6px 0 0}
.tab[aria-selected=true]{background:#2563eb;color:#fff;border-color:#2563eb}
.legend span{display:inline-block;margin-right:14px}.buy{color:#16a34a}.sell{color:#dc2626}.buy2{color:#2563eb}.sell2{color:#d97706}
.heatmap{display:grid;gap:2px;font-size:12px;font-variant-numeric:tabular-nums;max-width:1200px}
.heatmap div{padding:6px 4px;text-align:center;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.heatmap .axis{background:#f2f4f8;font-weight:600}.heatmap .cell{color:#111;border-radius:3px}
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

export type Cell = string | number | boolean | null;

/**
 * A table of at most MAX_TABLE_ROWS rows, with a note naming the CSV that holds the rest.
 * `attrs` go on the table element (already escaped).
 */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly Cell[]>, leftColumns: number, what: string, csv: string, attrs = ''): string {
  return tableOf(headers, rows, (row) => row, leftColumns, what, csv, attrs);
}

/** `table` of `items`, each row's cells made by `cellsOf` for the rows shown only (a long run's fills and orders are thousands). */
export function tableOf<T>(headers: readonly string[], items: readonly T[], cellsOf: (item: T) => readonly Cell[], leftColumns: number, what: string, csv: string, attrs = ''): string {
  const cls = (i: number): string => (i < leftColumns ? ' class="l"' : '');
  const head = `<tr>${headers.map((h, i) => `<th${cls(i)}>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const shown = items.slice(0, MAX_TABLE_ROWS);
  const body = shown.map((item) => `<tr>${cellsOf(item).map((c, i) => `<td${cls(i)}>${escapeHtml(c === null ? '–' : String(c))}</td>`).join('')}</tr>`).join('\n');
  const note = items.length > shown.length ? `<p class="note">Showing the first ${shown.length} of ${items.length} ${escapeHtml(what)}; <a href="${escapeHtml(csv)}">${escapeHtml(csv)}</a> (beside this page) holds them all.</p>\n` : '';
  return `${note}<div class="scroll"><table${attrs}>\n${head}\n${body}\n</table></div>`;
}

export { iso } from '../core/iso-time.js';

export interface PageParts {
  readonly title: string;
  readonly heading: string;
  readonly meta: readonly string[];
  readonly body: string;
  /** Embedded as #report-data for `script`; absent: a page without charts. */
  readonly data?: unknown;
  /** The page's own script (run after the chart library). */
  readonly script?: string;
}

export function page(parts: PageParts): string {
  const scripts = parts.script === undefined ? '' : `<script type="application/json" id="report-data">${scriptJson(parts.data ?? null)}</script>
<script>${chartLibraryScript()}</script>
<script>${parts.script}</script>
`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${escapeHtml(parts.heading)}</h1>
${parts.meta.map((m) => `<p class="meta">${escapeHtml(m)}</p>`).join('\n')}
${parts.script === undefined ? '' : '<noscript><p class="note">The charts are drawn by the page\'s inline script; the tables need none.</p></noscript>\n'}${parts.body}
${parts.script === undefined ? '' : '<p class="meta">Charts: TradingView Lightweight Charts™ (Apache-2.0), inlined.</p>\n'}${scripts}</body>
</html>
`;
}
