import { readFileSync } from 'node:fs';
import { packageFile } from '../../package-files.js';

/** This program's version (package.json), as shard manifests record it. */
export function stratdVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(packageFile('package.json'), 'utf8'));
  const version = typeof manifest === 'object' && manifest !== null && 'version' in manifest ? manifest.version : undefined;
  if (typeof version !== 'string' || version === '') throw new Error(`${packageFile('package.json')}: no version`);
  return version;
}
