import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { RankMetric } from '../output.js';
import type { MergedShards, WorkItem } from '../shard/index.js';
import { configHash, sweepConfigHash, sweepRowOf, toJsonValue } from '../shard/index.js';
import type { SweepCombination, SweepJob, SweepRow } from '../types.js';
import type { WalkForwardWindow } from './windows.js';
import { inSampleItemOf, inSampleItems } from './work-items.js';

/** The kind of walk-forward shards in their manifests. */
export const WALK_FORWARD_KIND = 'walk-forward';

/** A walk-forward's shardable work item: one in-sample backtest, id `window-<w>-combination-<c>` (both from 1). */
export interface InSampleWorkItem extends WorkItem {
  readonly combination: SweepCombination;
}

/**
 * The in-sample backtests (window × combination, `inSampleItems` order) as the ordered work list that
 * `--shard I/N` slices. The out-of-sample backtests (one per window) are not in it: they follow from
 * all in-sample rows, so the merge runs them.
 */
export function walkForwardWork(windows: readonly WalkForwardWindow[], combinations: readonly SweepCombination[]): InSampleWorkItem[] {
  return inSampleItems(windows, combinations).map((combination) => {
    const { window, combination: c } = inSampleItemOf(combination.index, combinations.length);
    return { id: `window-${window + 1}-combination-${c + 1}`, combination };
  });
}

/** What the results depend on besides the recordings: the sweep job (modules by content), the windows and the ranked metric. */
export function walkForwardConfigHash(job: SweepJob, windows: readonly WalkForwardWindow[], metric: RankMetric): string {
  return configHash(toJsonValue({ job: sweepConfigHash(job), windows, metric }));
}

/** The merged shards' in-sample rows, each checked against the item it belongs to, in work order. */
export function inSampleRowsOfMerged(merged: MergedShards, work: readonly InSampleWorkItem[], axes: number): Result<SweepRow[], string> {
  if (merged.results.length !== work.length) return err(`the shards hold ${merged.results.length} in-sample backtests, this walk-forward has ${work.length}`);
  const rows: SweepRow[] = [];
  for (const [position, { id, value }] of merged.results.entries()) {
    const item = work[position]!;
    const row = sweepRowOf(id, value);
    if (!row.ok) return row;
    if (id !== item.id || row.value.index !== item.combination.index || row.value.values.length !== axes) {
      return err(`${id}: the row of in-sample item ${row.value.index + 1} with ${row.value.values.length} values, not ${item.id} of ${axes} axes`);
    }
    rows.push(row.value);
  }
  return ok(rows);
}
