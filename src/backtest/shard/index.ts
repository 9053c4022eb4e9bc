// Splitting deterministic work (sweep combinations, walk-forward windows, Monte Carlo scenarios) into shards run apart, and merging their outputs.
export type { ShardMode, ShardSpec } from './shard-spec.js';
export { MAX_SHARDS, SHARD_MODES, parseShardSpec, shardLabel } from './shard-spec.js';
export type { WorkItem } from './work-slice.js';
export { checkWorkIds, slicePositions, sliceWork } from './work-slice.js';
export type { ShardManifest } from './shard-manifest.js';
export { ITEMS_DIR, MANIFEST_FILE, SHARD_FORMAT, shardManifestSchema } from './shard-manifest.js';
export { configHash, recordingsHash, toJsonValue } from './shard-hash.js';
export type { ShardPlan, ShardRunIdentity } from './shard-plan.js';
export { planShard } from './shard-plan.js';
export { writeShardOutput } from './shard-writer.js';
export type { MergeExpectations, MergedShards } from './shard-merge.js';
export { mergeShards, readShardManifest } from './shard-merge.js';
export type { SweepShardContext, SweepWorkItem } from './sweep-shard.js';
export { SWEEP_KIND, sweepConfigHash, sweepContextJson, sweepOfMerged, sweepRowJson, sweepWork } from './sweep-shard.js';
export type { SweepOutputs } from './sweep-write.js';
export { writeSweepOutputs } from './sweep-write.js';
