import { readFileSync } from 'node:fs';
import { chartLibraryFile } from '../../../core/chart-library.js';
import { packageFile } from '../../package-files.js';

/** A static file of the page, with the headers it is served with. */
export interface DashboardAsset {
  readonly type: string;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * The page may run only its own scripts and talk only to this server: no inline script, no other
 * origin, never inside a frame (clickjacking the halt button).
 */
const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const FILES: Readonly<Record<string, { readonly file: () => string; readonly type: string }>> = {
  '/ui': { file: () => packageFile('ui/index.html'), type: 'text/html; charset=utf-8' },
  '/ui/': { file: () => packageFile('ui/index.html'), type: 'text/html; charset=utf-8' },
  '/ui/dashboard.js': { file: () => packageFile('ui/dashboard.js'), type: 'text/javascript; charset=utf-8' },
  '/ui/dashboard.css': { file: () => packageFile('ui/dashboard.css'), type: 'text/css; charset=utf-8' },
  '/ui/vendor/lightweight-charts.js': { file: chartLibraryFile, type: 'text/javascript; charset=utf-8' },
};

/**
 * The dashboard's files (the top-level ui/ folder and the charting library from node_modules), read
 * once on first use and kept. Undefined for a path that is not one of them. A file missing from the
 * installation throws (a broken install, answered 500 and logged).
 */
export class DashboardAssets {
  private readonly cache = new Map<string, DashboardAsset>();

  get(path: string): DashboardAsset | undefined {
    const known = this.cache.get(path);
    if (known !== undefined) return known;
    const entry = FILES[path];
    if (entry === undefined) return undefined;
    const asset: DashboardAsset = {
      type: entry.type,
      body: readFileSync(entry.file()),
      headers: {
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-cache',
        ...(entry.type.startsWith('text/html') ? { 'content-security-policy': PAGE_POLICY, 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' } : {}),
      },
    };
    this.cache.set(path, asset);
    return asset;
  }
}
