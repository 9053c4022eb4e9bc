import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { canonicalJson } from '../../store/canonical-json.js';
import type { ShardManifest } from './manifest.js';
import { ITEMS_DIR, MANIFEST_FILE, shardManifestSchema } from './manifest.js';
import { shardLabel } from './spec.js';

/** What every merged shard agrees on, and every item's result (unvalidated JSON) in work order. */
export interface MergedShards {
  readonly kind: string;
  readonly stratdVersion: string;
  readonly recordingHash: string;
  readonly configHash: string;
  readonly context: ShardManifest['context'];
  readonly results: ReadonlyArray<{ readonly id: string; readonly value: unknown }>;
}

export interface MergeExpectations {
  /** The kind of work the caller merges ('sweep', …). */
  readonly kind: string;
  /** This program's version: shards of another version may have computed other results. */
  readonly stratdVersion: string;
}

interface ReadShard {
  readonly dir: string;
  readonly manifest: ShardManifest;
}

/** Reads and validates DIR/manifest.json; the message names the folder and what is wrong. */
export function readShardManifest(dir: string): Result<ShardManifest, string> {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return err(`${dir}: no ${MANIFEST_FILE} (not a shard output folder, or its shard has not finished)`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error: unknown) {
    return err(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = shardManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err(`${file}: ${issue?.path.join('.') || 'manifest'}: ${issue?.message ?? 'invalid'}`);
  }
  return ok(parsed.data);
}

function differs(first: ReadShard, other: ReadShard, what: string, a: string, b: string): string {
  return `${other.dir} and ${first.dir} are not shards of one run: ${what} differ (${b} against ${a})`;
}

function agreement(first: ReadShard, other: ReadShard): string | undefined {
  const a = first.manifest;
  const b = other.manifest;
  if (b.kind !== a.kind) return differs(first, other, 'the kinds of work', a.kind, b.kind);
  if (b.stratdVersion !== a.stratdVersion) return differs(first, other, 'the stratd versions', a.stratdVersion, b.stratdVersion);
  if (b.recordingHash !== a.recordingHash) return differs(first, other, 'the recordings', a.recordingHash.slice(0, 12), b.recordingHash.slice(0, 12));
  if (b.configHash !== a.configHash) return differs(first, other, 'the configurations (strategies, params, grid, risk limits, account, latency)', a.configHash.slice(0, 12), b.configHash.slice(0, 12));
  if (canonicalJson(b.workItems) !== canonicalJson(a.workItems)) return differs(first, other, 'the work lists', `${a.workItems.length} items`, `${b.workItems.length} items`);
  if (canonicalJson(b.context) !== canonicalJson(a.context)) return differs(first, other, 'the output settings', canonicalJson(a.context), canonicalJson(b.context));
  return undefined;
}

function listed(ids: readonly string[]): string {
  return ids.length <= 8 ? ids.join(', ') : `${ids.slice(0, 8).join(', ')} and ${ids.length - 8} more`;
}

/**
 * Combines shard output folders of one run: refuses folders of other kinds, versions, recordings,
 * configurations, work lists or output settings, an item in two folders, and any item of the work list
 * in none; then reads every item's result. The results come back in work order, whatever the folders'
 * order or sharding mode.
 */
export function mergeShards(dirs: readonly string[], expect: MergeExpectations): Result<MergedShards, string> {
  if (dirs.length === 0) return err('no shard folders to merge');
  const shards: ReadShard[] = [];
  for (const dir of dirs) {
    const manifest = readShardManifest(dir);
    if (!manifest.ok) return manifest;
    shards.push({ dir, manifest: manifest.value });
  }
  const first = shards[0]!;
  if (first.manifest.kind !== expect.kind) return err(`${first.dir}: holds ${first.manifest.kind} results, not ${expect.kind} results`);
  if (first.manifest.stratdVersion !== expect.stratdVersion) {
    return err(`${first.dir}: written by stratd ${first.manifest.stratdVersion}, this is stratd ${expect.stratdVersion}: merge with the version that ran the shards`);
  }
  for (const other of shards.slice(1)) {
    const problem = agreement(first, other);
    if (problem !== undefined) return err(problem);
  }
  const owner = new Map<string, ReadShard>();
  for (const shard of shards) {
    for (const id of shard.manifest.items) {
      const before = owner.get(id);
      if (before !== undefined) return err(`${id} is in both ${before.dir} (shard ${shardLabel(before.manifest.shard)}) and ${shard.dir} (shard ${shardLabel(shard.manifest.shard)}): the same item twice (a shard given twice, or shards of different counts)`);
      owner.set(id, shard);
    }
  }
  const work = first.manifest.workItems;
  const known = new Set(work);
  const foreign = [...owner.keys()].filter((id) => !known.has(id));
  if (foreign.length > 0) return err(`items outside the work list: ${listed(foreign)}`);
  const missing = work.filter((id) => !owner.has(id));
  if (missing.length > 0) {
    const counts = [...new Set(shards.map((s) => s.manifest.shard.count))];
    const given = shards.map((s) => shardLabel(s.manifest.shard)).join(', ');
    return err(`${missing.length} of ${work.length} items are in none of the folders (${listed(missing)}); given shards ${given} of ${counts.join(' or ')}: is a shard missing or unfinished?`);
  }
  const results: Array<{ id: string; value: unknown }> = [];
  for (const id of work) {
    const shard = owner.get(id)!;
    const file = join(shard.dir, ITEMS_DIR, `${id}.json`);
    if (!existsSync(file)) return err(`${file}: missing, though ${shard.dir}/${MANIFEST_FILE} lists ${id}`);
    try {
      results.push({ id, value: JSON.parse(readFileSync(file, 'utf8')) as unknown });
    } catch (error: unknown) {
      return err(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  const m = first.manifest;
  return ok({ kind: m.kind, stratdVersion: m.stratdVersion, recordingHash: m.recordingHash, configHash: m.configHash, context: m.context, results });
}
