import type { Cell } from '../../report/page.js';
import { escapeHtml, table } from '../../report/page.js';
import type { MethodSummary, MonteCarloSummary, RunFigures } from './summary.js';
import type { Distribution } from './percentiles.js';
import { histogramSvg } from './histogram-svg.js';
import type { ScenarioOutcome } from './scenario-outcome.js';

const COLUMNS = ['', 'backtest', 'p5', 'p25', 'p50', 'p75', 'p95', 'mean', 'scenarios'];

const money = (v: number): string => v.toFixed(2);
const pct = (v: number): string => `${(v * 100).toFixed(2)}%`;
const plain = (v: number): string => v.toFixed(3);

function row(name: string, reference: number | null, d: Distribution, format: (v: number) => string): Cell[] {
  const f = (v: number | null): Cell => (v === null ? null : format(v));
  const p = d.percentiles;
  return [name, f(reference), f(p.p5), f(p.p25), f(p.p50), f(p.p75), f(p.p95), f(d.mean), d.count];
}

function heading(summary: MonteCarloSummary, method: MethodSummary): { title: string; note: string; reference: RunFigures } {
  const { setup } = summary;
  if (method.method === 'shuffle' && setup.shuffle !== undefined) {
    const how = setup.shuffle.sampling === 'permute' ? 're-ordered (every scenario ends at the same equity; drawdown and Sharpe show the luck of the order)' : 'drawn with replacement';
    return {
      title: 'Trade shuffling',
      note: `${setup.shuffle.closedTrades} closed trades' PnL (realized less fees), ${how}; equity of closed trades only, so "backtest" is the trades as traded`,
      reference: setup.shuffle.asTraded,
    };
  }
  const b = setup.bootstrap;
  return {
    title: 'Block bootstrap of market returns',
    note: b === undefined ? '' : `synthetic recordings of ${b.blocksPerPath} blocks of ${b.blockMs / 60_000} min (any of ${b.blockStarts} starts, every ${b.strideMs / 1000} s), each symbol's prices re-levelled to continue the path; the strategies re-run on each`,
    reference: setup.backtest,
  };
}

/**
 * The Monte Carlo section of report.html: per method a table of percentiles of final equity, max
 * drawdown and Sharpe beside the backtest's own figures, the probability of ruin, and a histogram of
 * each (plain SVG).
 */
export function monteCarloSection(summary: MonteCarloSummary, outcomes: readonly ScenarioOutcome[]): string {
  const { setup } = summary;
  const parts = summary.methods.map((method) => {
    const { title, note, reference } = heading(summary, method);
    const mine = outcomes.filter((o) => o.method === method.method);
    const ruin = method.ruinProbability === null ? '–' : pct(method.ruinProbability);
    const undefinedSharpe = method.sharpeUndefined > 0 ? ` · Sharpe undefined (no variation) in ${method.sharpeUndefined}` : '';
    return `<h3>${escapeHtml(title)}</h3>
<p class="meta">${escapeHtml(note)}</p>
<p class="meta" data-ruin="${escapeHtml(method.method)}">probability of ruin (max drawdown ≥ ${escapeHtml(pct(setup.ruinDrawdown))}): <b>${escapeHtml(ruin)}</b>${escapeHtml(undefinedSharpe)}</p>
${table(
  COLUMNS,
  [
    row('final equity', Number(reference.finalEquity), method.finalEquity, money),
    row('max drawdown', reference.maxDrawdown, method.maxDrawdown, pct),
    row('Sharpe', reference.sharpe, method.sharpe, plain),
  ],
  1,
  'rows',
  'montecarlo.json',
  ` data-table="monte-carlo-${escapeHtml(method.method)}"`,
)}
<div>${histogramSvg('final equity', mine.map((o) => Number(o.finalEquity)), Number(reference.finalEquity), money)}${histogramSvg('max drawdown', mine.map((o) => o.maxDrawdown), reference.maxDrawdown, pct)}${histogramSvg(
      'Sharpe',
      mine.flatMap((o) => (o.sharpe === null ? [] : [o.sharpe])),
      reference.sharpe,
      plain,
    )}</div>`;
  });
  return `<h2>Monte Carlo</h2>
<p class="meta">seed ${setup.seed} · ${setup.scenarios} scenarios per method · every scenario in montecarlo.csv, the distributions in montecarlo.json (beside this page)</p>
${parts.join('\n')}`;
}
