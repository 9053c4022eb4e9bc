import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ConfigError } from '../../settings/config-error.js';

/**
 * How the ordered work list is cut into N shards:
 * - `round-robin` (default): item k (0-based, in list order) goes to shard k mod N. Neighbouring items
 *   (e.g. combinations that differ in one value, of similar cost) land on different shards, so the
 *   shards take about the same time.
 * - `contiguous`: shard I takes items floor(I·M/N) … floor((I+1)·M/N) − 1 of the M items: one unbroken
 *   run each (e.g. consecutive walk-forward windows), sizes differing by at most one.
 */
export const SHARD_MODES = ['round-robin', 'contiguous'] as const;
export type ShardMode = (typeof SHARD_MODES)[number];

/** Shard `index` (0-based, as Kubernetes' JOB_COMPLETION_INDEX) of `count`. */
export interface ShardSpec {
  readonly index: number;
  readonly count: number;
  readonly mode: ShardMode;
}

/** The largest shard count accepted (a sanity bound, far above any real cluster's job). */
export const MAX_SHARDS = 100_000;

/** `--shard I/N` (0 ≤ I < N) and `--shard-mode`; a mistake is a ConfigError naming the flag. */
export function parseShardSpec(text: string, modeText: string = 'round-robin'): Result<ShardSpec, ConfigError> {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || count > MAX_SHARDS || index >= count) {
    return err(new ConfigError(`--shard ${text}: I/N with N from 1 to ${MAX_SHARDS} and 0 ≤ I < N (I counts from 0, as Kubernetes' JOB_COMPLETION_INDEX)`, { path: '--shard' }));
  }
  const mode = SHARD_MODES.find((m) => m === modeText);
  if (mode === undefined) return err(new ConfigError(`--shard-mode ${modeText}: one of ${SHARD_MODES.join(', ')}`, { path: '--shard-mode' }));
  return ok({ index, count, mode });
}

/** "I/N" as the flag is written. */
export function shardLabel(spec: Pick<ShardSpec, 'index' | 'count'>): string {
  return `${spec.index}/${spec.count}`;
}
