import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HeatmapAxes } from '../report.js';
import { sweepReportHtml } from '../report.js';
import type { RankMetric } from '../output.js';
import { rankedTable, rankRows, sweepCsv } from '../output.js';
import { stabilityCsv } from '../stability/csv.js';
import { sweepStability } from '../stability/stability.js';
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
 * Writes OUT/sweep.csv, OUT/stability.csv (when a parameter has neighbours) and OUT/report.html and returns what the sweep prints (the ranked table and the
 * files written): one function for a whole sweep and for `sweep merge`, so both write the same bytes.
 */
export function writeSweepOutputs(out: string, outputs: SweepOutputs): string {
  const { axes, rows, rank, heat, recordings } = outputs;
  mkdirSync(out, { recursive: true });
  const file = join(out, 'sweep.csv');
  writeFileSync(file, sweepCsv(axes, rows));
  const stability = sweepStability(axes, rows, rank);
  const stabilityFile = join(out, 'stability.csv');
  if (stability !== undefined) writeFileSync(stabilityFile, stabilityCsv(stability));
  const html = join(out, 'report.html');
  writeFileSync(html, sweepReportHtml({ axes, rows, metric: rank, heat, recordings }));
  return `${rankedTable(axes, rankRows(rows, rank), rank)}wrote ${file}\n${stability === undefined ? '' : `wrote ${stabilityFile}\n`}wrote ${html}\n`;
}
