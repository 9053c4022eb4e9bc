import type { JsonValue } from '../../model/catalog-mirror.js';
import type { ShardManifest } from './manifest.js';
import { SHARD_FORMAT } from './manifest.js';
import type { ShardSpec } from './spec.js';
import type { WorkItem } from './work-slice.js';
import { sliceWork } from './work-slice.js';

/** What identifies a run, the same for all its shards. */
export interface ShardRunIdentity {
  readonly kind: string;
  readonly stratdVersion: string;
  readonly recordingHash: string;
  readonly configHash: string;
  /** The settings the merged outputs are rendered with (ranking, labels…). */
  readonly context: JsonValue;
}

export interface ShardPlan<T extends WorkItem> {
  /** This shard's items, in work order: the ones to run. */
  readonly items: readonly T[];
  /** Its manifest, to write with the results (`writeShardOutput`). */
  readonly manifest: ShardManifest;
}

/** Shard `spec` of the ordered work list: the items to run and the manifest that describes them. */
export function planShard<T extends WorkItem>(work: readonly T[], spec: ShardSpec, run: ShardRunIdentity): ShardPlan<T> {
  const items = sliceWork(work, spec);
  return {
    items,
    manifest: {
      format: SHARD_FORMAT,
      ...run,
      shard: spec,
      workItems: work.map((w) => w.id),
      items: items.map((w) => w.id),
    },
  };
}
