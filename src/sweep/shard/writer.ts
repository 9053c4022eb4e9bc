import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvariantError } from '../../core/errors.js';
import type { JsonValue } from '../../model/catalog-mirror.js';
import type { ShardManifest } from './manifest.js';
import { ITEMS_DIR, MANIFEST_FILE } from './manifest.js';

/**
 * Writes a shard output folder: items/<id>.json per result (JSON as given: object members keep their
 * order, which the merged outputs may show), then manifest.json (through a temporary
 * file and a rename, so a folder with a manifest is complete). A folder written before (a retried
 * Kubernetes pod) is cleared first: its manifest goes before anything else, then its items.
 */
export function writeShardOutput(dir: string, manifest: ShardManifest, results: ReadonlyMap<string, JsonValue>): string {
  if (results.size !== manifest.items.length || manifest.items.some((id) => !results.has(id))) {
    throw new InvariantError('SHARD_RESULTS', `the shard's results (${results.size}) are not its ${manifest.items.length} work items`);
  }
  const file = join(dir, MANIFEST_FILE);
  rmSync(file, { force: true });
  rmSync(join(dir, ITEMS_DIR), { recursive: true, force: true });
  mkdirSync(join(dir, ITEMS_DIR), { recursive: true });
  for (const id of manifest.items) writeFileSync(join(dir, ITEMS_DIR, `${id}.json`), `${JSON.stringify(results.get(id) ?? null)}\n`);
  const partial = `${file}.partial`;
  writeFileSync(partial, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(partial, file);
  return file;
}
