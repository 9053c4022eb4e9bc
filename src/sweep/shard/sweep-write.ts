import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HeatmapAxes } from '../report.js';
import { sweepReportHtml } from '../report.js';
import type { RankMetric } from '../output.js';
import { rankedTable, rankRows, sweepCsv } from '../output.js';
import type { SweepAxis, SweepRow } from '../types.js';

export interface SweepOutputs {
  readonly axes: readonly SweepAxis[];
  /** Every combination's row, in grid order. */
  readonly rows: readonly SweepRow[];
  readonly rank: RankMetric;
  readonly heat: HeatmapAxes;
  /** The recordings as named on the command line. */
  readonly recordings: readonly string[];
}

/**
 * Writes OUT/sweep.csv and OUT/report.html and returns what the sweep prints (the ranked table and the
 * files written): one function for a whole sweep and for `sweep merge`, so both write the same bytes.
 */
export function writeSweepOutputs(out: string, outputs: SweepOutputs): string {
  const { axes, rows, rank, heat, recordings } = outputs;
  mkdirSync(out, { recursive: true });
  const file = join(out, 'sweep.csv');
  writeFileSync(file, sweepCsv(axes, rows));
  const html = join(out, 'report.html');
  writeFileSync(html, sweepReportHtml({ axes, rows, metric: rank, heat, recordings }));
  return `${rankedTable(axes, rankRows(rows, rank), rank)}wrote ${file}\nwrote ${html}\n`;
}
