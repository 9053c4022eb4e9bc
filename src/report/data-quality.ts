import type { Cell } from './page.js';
import { escapeHtml, iso, table } from './page.js';
import type { DataQualitySummary } from '../recording/quality/check.js';

const COLUMNS = ['kind', 'symbol', 'stream', 'file', 'line', 'from', 'to', 'detail'];

/** The report's "Data quality" section: what the scan found in the range, gaps first. Empty without a scan. */
export function dataQualitySection(quality: DataQualitySummary | undefined): string {
  if (quality === undefined) return '';
  const c = quality.counts;
  const total = c.gap + c.duplicate + c['out-of-order'] + c['frozen-book'];
  const counts = `gaps ${c.gap}, duplicates ${c.duplicate}, out of order ${c['out-of-order']}, frozen books ${c['frozen-book']}`;
  if (total === 0) return `<h2>Data quality</h2>\n<p class="meta">No gaps, duplicates, out-of-order events or frozen books in the range.</p>`;
  const allowed = c.gap > 0 ? `<p class="note">The run went over ${c.gap} gap${c.gap === 1 ? '' : 's'} in the market (--allow-gaps): what the strategies did there is not what they would have done.</p>\n` : '';
  const rank = (kind: string): number => (kind === 'gap' ? 0 : 1);
  const rows = [...quality.findings]
    .sort((a, b) => rank(a.kind) - rank(b.kind))
    .map((f): Cell[] => [f.kind, f.symbol, f.stream, f.file, f.line ?? null, iso(f.from), iso(f.to), f.detail]);
  return `<h2>Data quality</h2>
${allowed}<p class="meta">${escapeHtml(counts)}</p>
${table(COLUMNS, rows, 4, 'findings', 'summary.json', ' data-table="data-quality"')}`;
}
