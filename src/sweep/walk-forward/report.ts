import { escapeHtml, iso, table } from '../../report/page.js';
import type { Cell } from '../../report/page.js';
import { money, ratio } from '../../backtest/summary.js';
import type { SweepAxis } from '../types.js';
import { axisName } from '../types.js';
import { comparedPerDay } from './efficiency.js';
import type { StitchedCurve } from './stitch.js';
import type { WalkForwardResult } from './run.js';
import { figure } from './output.js';

const WIDTH = 900;
const HEIGHT = 220;
const PAD = 8;

/**
 * The walk-forward section of a report: the overall efficiency, the stitched out-of-sample equity as an
 * inline SVG (window boundaries as dashed lines; no script needed) and a table of the windows with the
 * parameters each chose and how it did in and out of sample.
 */
export function walkForwardSectionHtml(result: WalkForwardResult, axes: readonly SweepAxis[]): string {
  const metric = result.metric;
  const rate = comparedPerDay(metric) ? `${metric} per day` : metric;
  const f = result.stitched.figures;
  const overall = figure(result.efficiency);
  const headers = ['window', 'in-sample', 'out-of-sample', '#', ...axes.map(axisName), `IS ${rate}`, `OOS ${rate}`, 'efficiency', 'OOS netPnl', 'OOS maxDD', 'OOS fills'];
  const rows = result.windows.map((w): Cell[] => [
    w.window.index + 1,
    `${iso(w.window.inSample.from)} – ${iso(w.window.inSample.to)}`,
    `${iso(w.window.outOfSample.from)} – ${iso(w.window.outOfSample.to)}`,
    w.chosen.index + 1,
    ...w.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
    figure(w.inSampleRate),
    figure(w.outOfSampleRate),
    figure(w.efficiency),
    w.outOfSample.netPnl,
    w.outOfSample.maxDrawdown,
    w.outOfSample.fills,
  ]);
  return `<section data-section="walk-forward">
<h2>Walk-forward</h2>
<p class="meta" data-efficiency="${overall ?? ''}">Walk-forward efficiency (out-of-sample ${escapeHtml(rate)} over in-sample, days-weighted): <b>${overall === null ? '–' : overall}</b>${overall === null ? ' (undefined: an in-sample rate of 0 or no defined value)' : ''}</p>
<p class="meta">Stitched out-of-sample: net PnL ${escapeHtml(money(result.stitched.netPnl))}, return ${ratio(f.totalReturn)}, max drawdown ${ratio(f.maxDrawdown)}, Sharpe ${f.sharpe === undefined ? '–' : ratio(f.sharpe)}</p>
<h3>Stitched out-of-sample equity</h3>
${equitySvg(result.stitched, result.windows.length)}
<h3>Windows</h3>
${table(headers, rows, 3 + axes.length + 1, 'windows', 'walkforward.csv', ' data-table="walk-forward"')}
</section>`;
}

/** The stitched curve as an SVG polyline scaled to its own range, a dashed line where each window starts. */
function equitySvg(curve: StitchedCurve, windows: number): string {
  const points = curve.points;
  if (points.length === 0) return '<p class="note">No out-of-sample equity samples.</p>';
  const t0 = points[0]!.time;
  const t1 = points[points.length - 1]!.time;
  const values = points.map((p) => p.equity.toNumber());
  const low = Math.min(...values);
  const high = Math.max(...values);
  const x = (time: number): number => PAD + (t1 === t0 ? 0 : ((time - t0) / (t1 - t0)) * (WIDTH - 2 * PAD));
  const y = (value: number): number => PAD + (high === low ? (HEIGHT - 2 * PAD) / 2 : ((high - value) / (high - low)) * (HEIGHT - 2 * PAD));
  const line = points.map((p, i) => `${x(p.time).toFixed(1)},${y(values[i]!).toFixed(1)}`).join(' ');
  const starts: string[] = [];
  for (let w = 1; w < windows; w++) {
    const first = points.find((p) => p.window === w);
    if (first !== undefined) starts.push(`<line x1="${x(first.time).toFixed(1)}" y1="0" x2="${x(first.time).toFixed(1)}" y2="${HEIGHT}" stroke="#94a3b8" stroke-dasharray="4 3"><title>window ${w + 1}</title></line>`);
  }
  const label = `equity ${money(curve.initialEquity)} → ${money(curve.initialEquity.add(curve.netPnl))} (range ${low} – ${high})`;
  return `<figure><svg class="chart" data-chart="walk-forward-equity" data-points="${points.length}" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(label)}">
${starts.join('\n')}
<polyline fill="none" stroke="#2563eb" stroke-width="1.5" points="${line}"/>
</svg><figcaption>${escapeHtml(`${label}; ${iso(t0)} – ${iso(t1)}`)}</figcaption></figure>`;
}
