import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { JsonValue } from '../../model/catalog-mirror.js';
import type { RankMetric } from '../output.js';
import { RANK_METRICS } from '../output.js';
import type { SweepAxis, SweepCombination, SweepJob, SweepRow } from '../types.js';
import type { MergedShards } from './merge.js';
import { configHash, toJsonValue } from './hash.js';
import type { WorkItem } from './work-slice.js';

/** The kind of sweep shards in their manifests. */
export const SWEEP_KIND = 'sweep';

/** A sweep's work item: one combination of the grid, id `combination-<row number>`. */
export interface SweepWorkItem extends WorkItem {
  readonly combination: SweepCombination;
}

/** The grid's combinations as the ordered work list (grid order, as sweep.csv lists them). */
export function sweepWork(combinations: readonly SweepCombination[]): SweepWorkItem[] {
  return combinations.map((combination) => ({ id: `combination-${combination.index + 1}`, combination }));
}

/** How the merged outputs are rendered: the same in every shard of one sweep. */
export interface SweepShardContext {
  readonly axes: readonly SweepAxis[];
  readonly rank: RankMetric;
  /** --heatmap as given, null: the default axes. */
  readonly heatmap: string | null;
  /** The recordings as named on the command line (report.html shows them). */
  readonly recordings: readonly string[];
}

export function sweepContextJson(context: SweepShardContext): JsonValue {
  return toJsonValue(context);
}

/**
 * The sweep's configuration hash: the job without the recordings' paths (hashed apart, by content) and
 * the prepared-cache choice (it does not change a result), each strategy module by the sha256 of its
 * file rather than its path, so shards run from different checkouts of the same code agree.
 */
export function sweepConfigHash(job: SweepJob): string {
  const { recordings: _recordings, prepared: _prepared, strategies, ...rest } = job;
  const modules = strategies.map(({ moduleFile, ...strategy }) => ({ ...strategy, moduleSha256: createHash('sha256').update(readFileSync(moduleFile)).digest('hex') }));
  return configHash(toJsonValue({ ...rest, strategies: modules }));
}

const metrics = z
  .object({
    netPnl: z.string(),
    return: z.number(),
    maxDrawdown: z.number(),
    sharpe: z.number().nullable(),
    sortino: z.number().nullable(),
    orders: z.number().int(),
    fills: z.number().int(),
    fees: z.string(),
    fillsSha256: z.string(),
  })
  .strict();

const row = z.object({ index: z.number().int().min(0), values: z.array(z.unknown()), metrics }).strict();

const context = z
  .object({
    axes: z.array(z.object({ strategy: z.string(), section: z.enum(['params', 'risk']), key: z.string(), values: z.array(z.unknown()) }).strict()),
    rank: z.enum(RANK_METRICS),
    heatmap: z.string().nullable(),
    recordings: z.array(z.string()),
  })
  .strict();

/** A sweep row as one item's result file holds it. */
export function sweepRowJson(sweepRow: SweepRow): JsonValue {
  return toJsonValue(sweepRow);
}

/** One item's result file read back as a sweep row (a sweep's combination, a walk-forward's in-sample backtest). */
export function sweepRowOf(id: string, value: unknown): Result<SweepRow, string> {
  const parsed = row.safeParse(value);
  return parsed.success ? ok(parsed.data) : err(`${id}: not a sweep row (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''})`);
}

/** The merged sweep: its rendering settings and every row in grid order, each checked. */
export function sweepOfMerged(merged: MergedShards): Result<{ readonly context: SweepShardContext; readonly rows: SweepRow[] }, string> {
  const settings = context.safeParse(merged.context);
  if (!settings.success) return err(`the shards' output settings are not a sweep's: ${settings.error.issues[0]?.message ?? ''}`);
  const rows: SweepRow[] = [];
  for (const [position, { id, value }] of merged.results.entries()) {
    const parsed = sweepRowOf(id, value);
    if (!parsed.ok) return parsed;
    if (parsed.value.index !== position || parsed.value.values.length !== settings.data.axes.length) return err(`${id}: the row of combination ${parsed.value.index + 1} with ${parsed.value.values.length} values, not combination ${position + 1} of ${settings.data.axes.length} axes`);
    rows.push(parsed.value);
  }
  return ok({ context: settings.data, rows });
}
