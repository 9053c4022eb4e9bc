import { InvariantError } from '../../core/errors.js';
import type { ShardSpec } from './spec.js';

/** One deterministic unit of work with an id stable across runs of the same inputs (a file name too). */
export interface WorkItem {
  readonly id: string;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Throws when ids repeat or are not file-name safe: the caller built a broken work list. */
export function checkWorkIds(items: readonly WorkItem[]): void {
  const seen = new Set<string>();
  for (const { id } of items) {
    if (!ID.test(id)) throw new InvariantError('WORK_ID', `work item id "${id}" is not a safe file name (letters, digits, . _ -)`);
    if (seen.has(id)) throw new InvariantError('WORK_ID', `work item id "${id}" appears twice in the work list`);
    seen.add(id);
  }
}

/** The positions (0-based, ascending) of the items of shard `spec` among `total` items. */
export function slicePositions(total: number, spec: ShardSpec): number[] {
  const positions: number[] = [];
  if (spec.mode === 'round-robin') {
    for (let k = spec.index; k < total; k += spec.count) positions.push(k);
    return positions;
  }
  const start = Math.floor((spec.index * total) / spec.count);
  const end = Math.floor(((spec.index + 1) * total) / spec.count);
  for (let k = start; k < end; k++) positions.push(k);
  return positions;
}

/**
 * Shard `spec`'s items of the ordered work list, in list order. Every item lands in exactly one of the
 * N shards, whatever N (a shard may be empty when N exceeds the list).
 */
export function sliceWork<T extends WorkItem>(items: readonly T[], spec: ShardSpec): T[] {
  checkWorkIds(items);
  return slicePositions(items.length, spec).map((k) => items[k]!);
}
