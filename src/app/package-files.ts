import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A file shipped with the package (config/…): found from the compiled CLI (dist/src/app) and from the
 * sources (src/app, when tests run them directly).
 */
export function packageFile(relative: string): string {
  const fromDist = fileURLToPath(new URL(`../../../${relative}`, import.meta.url));
  const fromSource = fileURLToPath(new URL(`../../${relative}`, import.meta.url));
  return existsSync(fromDist) || !existsSync(fromSource) ? fromDist : fromSource;
}
