import { z } from 'zod';
import type { JsonValue } from '../../model/catalog-mirror.js';
import { SHARD_MODES } from './spec.js';
import type { ShardSpec } from './spec.js';

/** The format tag of manifest.json; a later incompatible layout gets a new one. */
export const SHARD_FORMAT = 'stratd-shard/1';
export const MANIFEST_FILE = 'manifest.json';
/** One file per work item: items/<id>.json. */
export const ITEMS_DIR = 'items';

/**
 * manifest.json of a shard output folder: what was run (kind, inputs by hash, the whole ordered work
 * list and this shard's part of it) and the settings the merged outputs are rendered with (`context`,
 * the same in every shard of one run). Written last: a folder without it is an unfinished shard.
 */
export interface ShardManifest {
  readonly format: typeof SHARD_FORMAT;
  /** The work's kind: 'sweep', 'walk-forward', 'monte-carlo', … */
  readonly kind: string;
  readonly stratdVersion: string;
  /** sha256 over the recordings' bytes, in the order given (`recordingsHash`). */
  readonly recordingHash: string;
  /** sha256 of the canonical JSON of everything else the results depend on (kind-specific). */
  readonly configHash: string;
  readonly shard: ShardSpec;
  /** Every work item id of the run, in work order. */
  readonly workItems: readonly string[];
  /** This shard's item ids, in work order (one items/<id>.json each). */
  readonly items: readonly string[];
  readonly context: JsonValue;
}

const jsonValue: z.ZodType<JsonValue> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]));

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex');

export const shardManifestSchema = z
  .object({
    format: z.literal(SHARD_FORMAT),
    kind: z.string().min(1),
    stratdVersion: z.string().min(1),
    recordingHash: sha256,
    configHash: sha256,
    shard: z.object({ index: z.number().int().min(0), count: z.number().int().min(1), mode: z.enum(SHARD_MODES) }).strict(),
    workItems: z.array(z.string().min(1)),
    items: z.array(z.string().min(1)),
    context: jsonValue,
  })
  .strict()
  .refine((m) => m.shard.index < m.shard.count, { message: 'shard.index must be below shard.count', path: ['shard', 'index'] });
