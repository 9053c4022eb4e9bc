import { escapeHtml } from '../../report/page.js';
import { figure } from '../walk-forward/output.js';
import type { SweepStability } from './stability.js';

function label(value: unknown): string {
  return value === undefined ? '–' : typeof value === 'string' ? value : JSON.stringify(value);
}

function shown(value: number | undefined): string {
  const f = figure(value);
  return f === null ? '–' : String(f);
}

/**
 * The parameter-stability section of the sweep report: per swept parameter, the metric one grid step
 * below and above the best combination, the largest loss and a bar of the relative loss (full width:
 * a step loses all of the best's metric; red from 50 %).
 */
export function stabilitySectionHtml(stability: SweepStability | undefined): string {
  if (stability === undefined) return '';
  const rows = stability.parameters.map((p) => {
    const below = p.neighbours.find((n) => n.step === -1);
    const above = p.neighbours.find((n) => n.step === 1);
    const rel = figure(p.relativeLoss);
    const width = rel === null ? 0 : Math.round(Math.min(1, Math.max(0, rel)) * 100);
    const bar = rel === null ? '–' : `<span class="bar" style="display:inline-block;height:10px;width:${width}px;background:${rel >= 0.5 ? '#dc2626' : '#16a34a'}"></span> ${rel}`;
    const side = (n: typeof below): string => (n === undefined ? '<td>–</td><td>–</td>' : `<td>${escapeHtml(label(n.value))}</td><td>${escapeHtml(shown(n.score))}</td>`);
    return `<tr data-parameter="${escapeHtml(p.parameter)}" data-relative-loss="${rel ?? ''}"><td class="l">${escapeHtml(p.parameter)}</td><td>${escapeHtml(label(p.bestValue))}</td>${side(below)}${side(above)}<td>${escapeHtml(shown(p.maxLoss))}</td><td class="l">${bar}</td></tr>`;
  });
  const m = escapeHtml(stability.metric);
  return `<h2>Parameter stability around the best combination</h2>
<p class="meta">Best: combination #${stability.best} (${m} ${escapeHtml(shown(stability.bestScore))}). Each parameter one grid step below and above, the others as in the best; loss: how much worse ${m} is there; relative: over |best| (0: a plateau, 1: the step loses it all).</p>
<div class="scroll"><table data-table="stability">
<tr><th class="l">parameter</th><th>best value</th><th>−1 step</th><th>${m}</th><th>+1 step</th><th>${m}</th><th>max loss</th><th class="l">relative loss</th></tr>
${rows.join('\n')}
</table></div>`;
}
