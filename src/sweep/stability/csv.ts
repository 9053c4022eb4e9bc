import { csvLine } from '../../report/csv.js';
import { figure } from '../walk-forward/output.js';
import type { SweepStability } from './stability.js';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** stability.csv: one line per swept parameter — its best value, each neighbour's value and metric, the max and relative loss. */
export function stabilityCsv(stability: SweepStability): string {
  const header = ['parameter', 'bestCombination', 'bestValue', `best.${stability.metric}`, 'belowValue', `below.${stability.metric}`, 'aboveValue', `above.${stability.metric}`, 'maxLoss', 'relativeLoss'];
  const lines = stability.parameters.map((p) => {
    const below = p.neighbours.find((n) => n.step === -1);
    const above = p.neighbours.find((n) => n.step === 1);
    return csvLine([
      p.parameter,
      stability.best,
      cell(p.bestValue),
      cell(figure(stability.bestScore)),
      cell(below?.value),
      cell(figure(below?.score)),
      cell(above?.value),
      cell(figure(above?.score)),
      cell(figure(p.maxLoss)),
      cell(figure(p.relativeLoss)),
    ]);
  });
  return csvLine(header) + lines.join('');
}
