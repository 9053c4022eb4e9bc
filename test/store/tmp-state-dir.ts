import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the OS temp dir; `remove()` deletes it and everything in it. */
export function tmpStateDir(): { readonly dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'stratd-store-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
