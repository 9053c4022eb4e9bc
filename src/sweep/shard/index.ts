// Splitting deterministic work (sweep combinations, walk-forward windows, Monte Carlo scenarios) into shards run apart, and merging their outputs.
export type { ShardMode, ShardSpec } from './spec.js';
export { MAX_SHARDS, SHARD_MODES, parseShardSpec, shardLabel } from './spec.js';
export type { WorkItem } from './work-slice.js';
export { checkWorkIds, slicePositions, sliceWork } from './work-slice.js';
export type { ShardManifest } from './manifest.js';
export { ITEMS_DIR, MANIFEST_FILE, SHARD_FORMAT, shardManifestSchema } from './manifest.js';
export { configHash, recordingsHash, toJsonValue } from './hash.js';
export type { ShardPlan, ShardRunIdentity } from './plan.js';
export { planShard } from './plan.js';
export { writeShardOutput } from './writer.js';
export type { MergeExpectations, MergedShards } from './merge.js';
export { mergeShards, readShardManifest } from './merge.js';
export type { SweepShardContext, SweepWorkItem } from './sweep-shard.js';
export { SWEEP_KIND, sweepConfigHash, sweepContextJson, sweepOfMerged, sweepRowJson, sweepRowOf, sweepWork } from './sweep-shard.js';
export type { SweepOutputs } from './sweep-write.js';
export { writeSweepOutputs } from './sweep-write.js';
