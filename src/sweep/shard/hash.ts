import { createHash } from 'node:crypto';
import type { JsonValue } from '../../model/catalog-mirror.js';
import { InvariantError } from '../../core/errors.js';
import { canonicalJson } from '../../store/canonical-json.js';
import { fileSha256 } from '../../recording/prepared/cache.js';

/**
 * The recordings' identity: sha256 over each file's sha256, in the order given. Their bytes, not their
 * paths: shards on other machines (other mount points) of the same files agree.
 */
export async function recordingsHash(files: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${(await fileSha256(file)).sha256}\n`);
  return hash.digest('hex');
}

/** sha256 of a value's canonical JSON (keys sorted): equal content, equal hash. */
export function configHash(value: JsonValue): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** A plain value as JSON (what JSON.stringify would keep); throws on what JSON cannot hold. */
export function toJsonValue(value: unknown, path = '$'): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvariantError('NOT_JSON', `${path}: ${value} is not a JSON number`);
    return value;
  }
  if (Array.isArray(value)) return value.map((v: unknown, i) => toJsonValue(v, `${path}[${i}]`));
  if (typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const [key, member] of Object.entries(value)) if (member !== undefined) out[key] = toJsonValue(member, `${path}.${key}`);
    return out;
  }
  throw new InvariantError('NOT_JSON', `${path}: a ${typeof value} is not JSON`);
}
