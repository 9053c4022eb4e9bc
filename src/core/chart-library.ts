import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The file of lightweight-charts' standalone production bundle (TradingView, Apache-2.0; an IIFE that
 * defines `window.LightweightCharts`), found through node's resolution of the package wherever the code
 * runs (sources, dist, hoisted or nested node_modules, the Docker image: a production dependency, kept
 * by `npm prune`). Its exports map lists only `.` and `./package.json`, so the bundle is found beside
 * the package.json.
 */
export function chartLibraryFile(): string {
  const manifest = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
  return join(dirname(manifest), 'dist', 'lightweight-charts.standalone.production.js');
}

let cached: string | undefined;

/** The bundle as text to inline into a page's <script> (the backtest report). Read once. */
export function chartLibraryScript(): string {
  if (cached !== undefined) return cached;
  const file = chartLibraryFile();
  const source = readFileSync(file, 'utf8');
  // Inlined as the body of a <script> element: these would end it or change how it is parsed.
  if (/<\/script|<!--|<script/i.test(source)) throw new Error(`${file}: the chart bundle holds markup that cannot be inlined in a <script>`);
  cached = source;
  return source;
}
