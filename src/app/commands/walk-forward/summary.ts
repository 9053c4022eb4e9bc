import type { SweepAxis } from '../../../sweep/types.js';
import { axisName } from '../../../sweep/types.js';
import { comparedPerDay } from '../../../sweep/walk-forward/efficiency.js';
import { figure } from '../../../sweep/walk-forward/output.js';
import type { WalkForwardResult } from '../../../sweep/walk-forward/run.js';
import { money } from '../../../backtest/summary.js';

/** The plain-text outcome `stratd walkforward` prints: one aligned line per window, then the efficiency and the stitched figures. */
export function summaryLines(result: WalkForwardResult, axes: readonly SweepAxis[]): string {
  const rate = comparedPerDay(result.metric) ? `${result.metric}/day` : result.metric;
  const header = ['window', 'out-of-sample from', '#', ...axes.map(axisName), `IS ${rate}`, `OOS ${rate}`, 'efficiency'];
  const shown = (v: number | undefined): string => {
    const f = figure(v);
    return f === null ? '–' : String(f);
  };
  const body = result.windows.map((w) => [
    String(w.window.index + 1),
    new Date(w.window.outOfSample.from).toISOString(),
    String(w.chosen.index + 1),
    ...w.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
    shown(w.inSampleRate),
    shown(w.outOfSampleRate),
    shown(w.efficiency),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((text, c) => text.padEnd(widths[c] ?? 0)).join('  ').trimEnd();
  const f = result.stitched.figures;
  return `${[header, ...body].map(line).join('\n')}
walk-forward efficiency (${rate}, out-of-sample over in-sample): ${shown(result.efficiency)}
stitched out-of-sample: net PnL ${money(result.stitched.netPnl)}, max drawdown ${figure(f.maxDrawdown.toNumber()) ?? 0}, Sharpe ${f.sharpe === undefined ? '–' : String(figure(f.sharpe.toNumber()))}
`;
}
