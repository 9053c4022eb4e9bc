import { dec } from '../core/decimal.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { ConfigError } from '../settings/config-error.js';
import type { Cell } from '../report/page.js';
import { escapeHtml, page, table } from '../report/page.js';
import type { RankMetric } from './output.js';
import { rankRows } from './output.js';
import type { SweepAxis, SweepRow } from './types.js';
import { axisName } from './types.js';

/** The two axes of the heat map (indexes into the sweep's axes); `y` is absent for a sweep of one axis. */
export interface HeatmapAxes {
  readonly x: number;
  readonly y?: number;
}

/**
 * `--heatmap A,B`: two swept settings by their column name (strategy.section.key) or, when only one
 * axis has it, by key alone. Default: the first two axes.
 */
export function heatmapAxesOf(axes: readonly SweepAxis[], flag: string | undefined): Result<HeatmapAxes, ConfigError> {
  if (flag === undefined) return ok(axes.length > 1 ? { x: 0, y: 1 } : { x: 0 });
  const names = flag.split(',').map((n) => n.trim());
  const known = axes.map(axisName).join(', ');
  if (names.length !== 2 || names.some((n) => n === '')) return err(new ConfigError(`--heatmap ${flag}: two swept settings, comma-separated (of ${known})`, { path: '--heatmap' }));
  const found: number[] = [];
  for (const name of names) {
    const exact = axes.findIndex((a) => axisName(a) === name);
    const byKey = axes.flatMap((a, i) => (a.key === name ? [i] : []));
    const index = exact >= 0 ? exact : byKey.length === 1 ? byKey[0]! : -1;
    if (index < 0) return err(new ConfigError(`--heatmap ${flag}: ${name} is ${byKey.length > 1 ? 'the key of more than one swept setting: name it as strategy.section.key' : 'not swept'} (swept: ${known})`, { path: '--heatmap' }));
    found.push(index);
  }
  if (found[0] === found[1]) return err(new ConfigError(`--heatmap ${flag}: two different swept settings`, { path: '--heatmap' }));
  return ok({ x: found[0]!, y: found[1]! });
}

function label(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function score(row: SweepRow, metric: RankMetric): number | undefined {
  const value = row.metrics[metric];
  if (value === null) return undefined;
  return typeof value === 'string' ? dec(value).toNumber() : value;
}

/**
 * The heat map: one cell per pair of values of the two axes, holding `metric` of the best-ranked
 * combination with those values (with more than two axes, the best over the others). Coloured by
 * value from red (worst cell) to green (best); a cell without a value is grey.
 */
export function heatmapHtml(axes: readonly SweepAxis[], rows: readonly SweepRow[], metric: RankMetric, heat: HeatmapAxes): string {
  const xAxis = axes[heat.x]!;
  const yAxis = heat.y === undefined ? undefined : axes[heat.y];
  const ranked = rankRows(rows, metric);
  const key = (v: unknown): string => JSON.stringify(v);
  const xs = xAxis.values;
  const ys = yAxis === undefined ? [undefined] : yAxis.values;
  const best = (x: unknown, y: unknown): SweepRow | undefined => ranked.find((r) => key(r.values[heat.x]) === key(x) && (heat.y === undefined || key(r.values[heat.y]) === key(y)));
  const cells = ys.map((y) => xs.map((x) => best(x, y)));
  // Coloured by value: the best cell green, the worst red (equal values, equal colours).
  const lowerIsBetter = metric === 'maxDrawdown' || metric === 'fees';
  const scores = cells.flat().flatMap((row) => (row === undefined ? [] : [score(row, metric)].filter((v): v is number => v !== undefined)));
  const low = Math.min(...scores);
  const high = Math.max(...scores);
  const colour = (row: SweepRow | undefined): string => {
    const value = row === undefined ? undefined : score(row, metric);
    if (value === undefined) return '#e5e7eb';
    const up = high === low ? 1 : (value - low) / (high - low);
    const share = lowerIsBetter ? 1 - up : up;
    return `hsl(${Math.round(share * 120)},65%,${Math.round(72 - share * 12)}%)`;
  };
  const columns = `grid-template-columns:minmax(90px,auto) repeat(${xs.length},minmax(64px,1fr))`;
  const head = [`<div class="axis">${escapeHtml(yAxis === undefined ? '' : `${yAxis.key} ↓ / ${xAxis.key} →`)}</div>`, ...xs.map((x) => `<div class="axis">${escapeHtml(label(x))}</div>`)];
  const body = ys.flatMap((y, j) => [
    `<div class="axis">${escapeHtml(y === undefined ? xAxis.key : label(y))}</div>`,
    ...xs.map((_, i) => {
      const row = cells[j]![i];
      const value = row === undefined ? undefined : row.metrics[metric];
      const title = row === undefined ? 'no combination' : `#${row.index + 1}: ${axes.map((a, k) => `${axisName(a)}=${label(row.values[k])}`).join(', ')}`;
      const shown = value === undefined || value === null ? '–' : String(value);
      return `<div class="cell" data-x="${i}" data-y="${j}" data-combination="${row === undefined ? '' : row.index + 1}" title="${escapeHtml(title)}" style="background:${colour(row)}">${escapeHtml(shown)}</div>`;
    }),
  ]);
  const others = axes.length > (yAxis === undefined ? 1 : 2) ? `<p class="meta">Each cell: the best ${escapeHtml(metric)} over the other swept settings (its combination in the tooltip).</p>\n` : '';
  return `${others}<div class="heatmap" data-metric="${escapeHtml(metric)}" style="${columns}">\n${[...head, ...body].join('\n')}\n</div>`;
}

export interface SweepReportInput {
  readonly axes: readonly SweepAxis[];
  readonly rows: readonly SweepRow[];
  readonly metric: RankMetric;
  readonly heat: HeatmapAxes;
  readonly recordings: readonly string[];
}

/** report.html of a sweep: the heat map of the ranked metric and the ranked table (sweep.csv holds every row). */
export function sweepReportHtml(input: SweepReportInput): string {
  const { axes, rows, metric, heat } = input;
  const ranked = rankRows(rows, metric);
  const headers = ['rank', '#', ...axes.map(axisName), 'netPnl', 'return', 'maxDrawdown', 'sharpe', 'sortino', 'orders', 'fills', 'fees'];
  const cells = ranked.map((r, i): Cell[] => [i + 1, r.index + 1, ...r.values.map(label), r.metrics.netPnl, r.metrics.return, r.metrics.maxDrawdown, r.metrics.sharpe, r.metrics.sortino, r.metrics.orders, r.metrics.fills, r.metrics.fees]);
  const yAxis = heat.y === undefined ? undefined : axes[heat.y];
  const title = `${metric} by ${axisName(axes[heat.x]!)}${yAxis === undefined ? '' : ` and ${axisName(yAxis)}`}`;
  return page({
    title: 'stratd sweep',
    heading: 'stratd sweep',
    meta: [`${rows.length} combinations of ${axes.map(axisName).join(', ')}`, `recordings: ${input.recordings.join(', ')}`, `ranked by ${metric}${metric === 'maxDrawdown' || metric === 'fees' ? ' (lower is better)' : ''}`],
    body: `<h2>Heat map: ${escapeHtml(title)}</h2>
${heatmapHtml(axes, rows, metric, heat)}
<h2>Ranked</h2>
${table(headers, cells, 2 + axes.length, 'combinations', 'sweep.csv', ' data-table="ranked"')}`,
  });
}
