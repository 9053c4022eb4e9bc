import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonValue } from '../../../model/catalog-mirror.js';
import type { ShardPlan } from '../../../sweep/shard/index.js';
import { shardLabel, sweepRowJson, writeShardOutput } from '../../../sweep/shard/index.js';
import type { SweepRow } from '../../../sweep/types.js';
import type { WalkForwardSetup } from '../../../sweep/walk-forward/output.js';
import { inSampleCsv, walkForwardCsv, walkForwardEquityCsv, walkForwardJson } from '../../../sweep/walk-forward/output.js';
import { walkForwardReportHtml } from '../../../sweep/walk-forward/page.js';
import type { WalkForwardResult } from '../../../sweep/walk-forward/run.js';
import type { InSampleWorkItem } from '../../../sweep/walk-forward/shard.js';
import { summaryLines } from './summary.js';

/**
 * Writes walkforward.json, walkforward.csv, walkforward-equity.csv, walkforward-in-sample.csv and
 * report.html into `out` and returns what the command prints: one function for a whole walk-forward
 * and for `walkforward merge`, so both write the same bytes.
 */
export function writeWalkForwardOutputs(out: string, result: WalkForwardResult, setup: WalkForwardSetup): string {
  mkdirSync(out, { recursive: true });
  const files: Array<[string, string]> = [
    ['walkforward.json', walkForwardJson(result, setup)],
    ['walkforward.csv', walkForwardCsv(result, setup.axes)],
    ['walkforward-equity.csv', walkForwardEquityCsv(result)],
    ['walkforward-in-sample.csv', inSampleCsv(result, setup.axes, setup.combinations)],
    ['report.html', walkForwardReportHtml(result, setup)],
  ];
  for (const [name, text] of files) writeFileSync(join(out, name), text);
  return `${summaryLines(result, setup.axes)}${files.map(([name]) => `wrote ${join(out, name)}\n`).join('')}`;
}

/** Writes a shard's in-sample rows (items/window-W-combination-C.json) and manifest.json into `out`; returns what to print. */
export function writeInSampleShard(out: string, plan: ShardPlan<InSampleWorkItem>, rows: readonly SweepRow[]): string {
  const byIndex = new Map(rows.map((row) => [row.index, row]));
  const results = new Map<string, JsonValue>();
  for (const item of plan.items) {
    const row = byIndex.get(item.combination.index);
    if (row !== undefined) results.set(item.id, sweepRowJson(row));
  }
  const file = writeShardOutput(out, plan.manifest, results);
  const { shard, workItems } = plan.manifest;
  return `shard ${shardLabel(shard)} (${shard.mode}): ${plan.items.length} of ${workItems.length} in-sample backtests\nwrote ${file}\n`;
}
