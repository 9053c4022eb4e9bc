import type { SweepShardContext, SweepWorkItem, ShardPlan, ShardSpec } from '../../../sweep/shard/index.js';
import { planShard, recordingsHash, shardLabel, SWEEP_KIND, sweepConfigHash, sweepContextJson, sweepRowJson, sweepWork, writeShardOutput } from '../../../sweep/shard/index.js';
import type { JsonValue } from '../../../model/catalog-mirror.js';
import type { SweepCombination, SweepJob, SweepRow } from '../../../sweep/types.js';
import { stratdVersion } from './stratd-version.js';

/** Shard `spec` of the sweep's combinations, and the manifest its output folder gets. */
export async function planSweepShard(job: SweepJob, combinations: readonly SweepCombination[], spec: ShardSpec, context: SweepShardContext): Promise<ShardPlan<SweepWorkItem>> {
  return planShard(sweepWork(combinations), spec, {
    kind: SWEEP_KIND,
    stratdVersion: stratdVersion(),
    recordingHash: await recordingsHash(job.recordings),
    configHash: sweepConfigHash(job),
    context: sweepContextJson(context),
  });
}

/** Writes the shard's rows (one items/combination-N.json each) and manifest.json into `out`; returns what to print. */
export function writeSweepShard(out: string, plan: ShardPlan<SweepWorkItem>, rows: readonly SweepRow[]): string {
  const byIndex = new Map(rows.map((row) => [row.index, row]));
  const results = new Map<string, JsonValue>();
  for (const item of plan.items) {
    const row = byIndex.get(item.combination.index);
    if (row !== undefined) results.set(item.id, sweepRowJson(row));
  }
  const file = writeShardOutput(out, plan.manifest, results);
  const { shard, workItems } = plan.manifest;
  return `shard ${shardLabel(shard)} (${shard.mode}): ${plan.items.length} of ${workItems.length} combinations\nwrote ${file}\n`;
}
