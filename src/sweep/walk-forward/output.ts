import { dec } from '../../core/decimal.js';
import { csvLine } from '../../report/csv.js';
import { money, ratio } from '../../backtest/summary.js';
import type { SweepAxis, SweepMetrics } from '../types.js';
import { axisName } from '../types.js';
import { comparedPerDay } from './efficiency.js';
import type { WalkForwardResult } from './run.js';
import { inSampleItemOf } from './work-items.js';

/** What the outputs say about how the run was set up. */
export interface WalkForwardSetup {
  readonly recordings: readonly string[];
  readonly anchored: boolean;
  readonly axes: readonly SweepAxis[];
  /** Grid combinations tried per window. */
  readonly combinations: number;
}

const METRICS = ['netPnl', 'return', 'maxDrawdown', 'sharpe', 'sortino', 'orders', 'fills', 'fees'] as const satisfies ReadonlyArray<keyof SweepMetrics>;

/** A rate or efficiency with 6 decimals (null: undefined), so equal runs give equal bytes. */
export function figure(value: number | undefined): number | null {
  return value === undefined || !Number.isFinite(value) ? null : ratio(dec(value));
}

function iso(time: number): string {
  return new Date(time).toISOString();
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** walkforward.json: the setup, each window (parts, choice, both parts' figures, efficiency), the overall efficiency and the stitched curve's figures. */
export function walkForwardJson(result: WalkForwardResult, setup: WalkForwardSetup): string {
  const { stitched } = result;
  const f = stitched.figures;
  const doc = {
    format: 'stratd-walk-forward',
    version: 1,
    recordings: setup.recordings,
    metric: result.metric,
    rate: comparedPerDay(result.metric) ? `${result.metric} per day` : `${result.metric} as it is`,
    anchored: setup.anchored,
    combinationsPerWindow: setup.combinations,
    parameters: setup.axes.map(axisName),
    efficiency: figure(result.efficiency),
    windows: result.windows.map((w) => ({
      window: w.window.index + 1,
      inSample: { from: w.window.inSample.from, to: w.window.inSample.to, fromIso: iso(w.window.inSample.from), toIso: iso(w.window.inSample.to) },
      outOfSample: { from: w.window.outOfSample.from, to: w.window.outOfSample.to, fromIso: iso(w.window.outOfSample.from), toIso: iso(w.window.outOfSample.to) },
      combination: w.chosen.index + 1,
      chosen: Object.fromEntries(setup.axes.map((axis, a) => [axisName(axis), w.values[a]])),
      inSampleRate: figure(w.inSampleRate),
      outOfSampleRate: figure(w.outOfSampleRate),
      efficiency: figure(w.efficiency),
      inSampleMetrics: w.inSample,
      outOfSampleMetrics: w.outOfSample,
    })),
    stitched: {
      initialEquity: money(stitched.initialEquity),
      finalEquity: money(stitched.initialEquity.add(stitched.netPnl)),
      netPnl: money(stitched.netPnl),
      return: ratio(f.totalReturn),
      maxDrawdown: ratio(f.maxDrawdown),
      maxDrawdownAmount: money(f.maxDrawdownAmount),
      sharpe: f.sharpe === undefined ? null : ratio(f.sharpe),
      sortino: f.sortino === undefined ? null : ratio(f.sortino),
      samples: stitched.points.length,
    },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** walkforward.csv: one line per window — its parts, the chosen combination and values, rates and efficiency, the out-of-sample figures. */
export function walkForwardCsv(result: WalkForwardResult, axes: readonly SweepAxis[]): string {
  const header = ['window', 'inSampleFrom', 'inSampleTo', 'outOfSampleFrom', 'outOfSampleTo', 'combination', ...axes.map(axisName), `inSample.${result.metric}`, `outOfSample.${result.metric}`, 'inSampleRate', 'outOfSampleRate', 'efficiency', ...METRICS.map((m) => `outOfSample.${m}`)];
  const lines = result.windows.map((w) =>
    csvLine([
      w.window.index + 1,
      iso(w.window.inSample.from),
      iso(w.window.inSample.to),
      iso(w.window.outOfSample.from),
      iso(w.window.outOfSample.to),
      w.chosen.index + 1,
      ...w.values.map(cell),
      cell(w.inSample[result.metric]),
      cell(w.outOfSample[result.metric]),
      cell(figure(w.inSampleRate)),
      cell(figure(w.outOfSampleRate)),
      cell(figure(w.efficiency)),
      ...METRICS.map((m) => cell(w.outOfSample[m])),
    ]),
  );
  return csvLine(header) + lines.join('');
}

/** walkforward-equity.csv: the stitched out-of-sample equity, one line per sample, with its window. */
export function walkForwardEquityCsv(result: WalkForwardResult): string {
  return csvLine(['time', 'timeIso', 'window', 'equity']) + result.stitched.points.map((p) => csvLine([p.time, iso(p.time), p.window + 1, money(p.equity)])).join('');
}

/** walkforward-in-sample.csv: every in-sample backtest, window by window, in grid order. */
export function inSampleCsv(result: WalkForwardResult, axes: readonly SweepAxis[], combinations: number): string {
  const header = ['window', 'combination', ...axes.map(axisName), ...METRICS];
  return (
    csvLine(header) +
    result.inSampleRows
      .map((row) => {
        const item = inSampleItemOf(row.index, combinations);
        return csvLine([item.window + 1, item.combination + 1, ...row.values.map(cell), ...METRICS.map((m) => cell(row.metrics[m]))]);
      })
      .join('')
  );
}
