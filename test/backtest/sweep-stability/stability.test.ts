import { sweepReportHtml } from '../../../src/sweep/report.js';
import { stabilityCsv } from '../../../src/sweep/stability/csv.js';
import { sweepStability } from '../../../src/sweep/stability/stability.js';
import { expand } from '../../../src/sweep/grid.js';
import type { SweepAxis, SweepRow } from '../../../src/sweep/types.js';
import { valuesOf } from '../../../src/sweep/types.js';

const axes: SweepAxis[] = [
  { strategy: 's', section: 'params', key: 'a', values: [1, 2, 3] },
  { strategy: 's', section: 'params', key: 'b', values: [10, 20] },
];

/** A grid whose netPnl is given per (a, b), drawdown the opposite. */
function rows(pnl: (a: number, b: number) => number): SweepRow[] {
  return expand(axes).map((c) => {
    const values = valuesOf(axes, c);
    const [a, b] = values as [number, number];
    const net = pnl(a, b);
    return { index: c.index, values, metrics: { netPnl: String(net), return: net / 1000, maxDrawdown: 1 / (10 + net), sharpe: null, sortino: null, orders: 1, fills: 1, fees: '0', fillsSha256: '' } };
  });
}

describe('sweep parameter stability', () => {
  it('measures how much the metric falls one grid step from the best, per parameter', () => {
    // Best at a=2, b=20 (100); a=1 → 90, a=3 → 40; b=10 → 99.
    const grid = rows((a, b) => (a === 2 ? (b === 20 ? 100 : 99) : a === 1 ? (b === 20 ? 90 : 0) : b === 20 ? 40 : 0));
    const stability = sweepStability(axes, grid, 'netPnl')!;
    expect(stability.best).toBe(4);
    expect(stability.bestScore).toBe(100);
    const [a, b] = stability.parameters;
    expect(a!.parameter).toBe('s.params.a');
    expect(a!.neighbours.map((n) => [n.step, n.value, n.score, n.loss])).toEqual([
      [-1, 1, 90, 10],
      [1, 3, 40, 60],
    ]);
    expect(a!.maxLoss).toBe(60);
    expect(a!.relativeLoss).toBeCloseTo(0.6);
    // b's best value is the last: only the step below exists.
    expect(b!.neighbours.map((n) => [n.step, n.value, n.loss])).toEqual([[-1, 10, 1]]);
    expect(b!.relativeLoss).toBeCloseTo(0.01);
    expect(stabilityCsv(stability).split('\n').slice(0, 3)).toEqual([
      'parameter,bestCombination,bestValue,best.netPnl,belowValue,below.netPnl,aboveValue,above.netPnl,maxLoss,relativeLoss',
      's.params.a,4,2,100,1,90,3,40,60,0.6',
      's.params.b,4,20,100,10,99,,,1,0.01',
    ]);
  });

  it('counts a rise as the loss for a lower-is-better metric', () => {
    const grid = rows((a, b) => (a === 2 && b === 20 ? 100 : 50));
    const stability = sweepStability(axes, grid, 'maxDrawdown')!;
    // The best drawdown is the highest netPnl's: 1/110; neighbours have 1/60.
    expect(stability.best).toBe(4);
    expect(stability.parameters[0]!.maxLoss).toBeCloseTo(1 / 60 - 1 / 110);
    expect(stability.parameters[0]!.maxLoss).toBeGreaterThan(0);
  });

  it('shows a table with a bar per parameter in the sweep report', () => {
    const grid = rows((a, b) => (a === 2 ? (b === 20 ? 100 : 99) : 20));
    const html = sweepReportHtml({ axes, rows: grid, metric: 'netPnl', heat: { x: 0, y: 1 }, recordings: ['r.jsonl'] });
    expect(html).toContain('<h2>Parameter stability around the best combination</h2>');
    expect(html).toContain('<tr data-parameter="s.params.a" data-relative-loss="0.8">');
    expect(html).toContain('<tr data-parameter="s.params.b" data-relative-loss="0.01">');
    expect(html).toMatch(/data-relative-loss="0\.8">.*width:80px;background:#dc2626/);
  });
});
