import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The standalone production bundle of lightweight-charts (TradingView, Apache-2.0; it defines
 * `window.LightweightCharts`), read from node_modules wherever the code runs (sources, dist, the Docker
 * image), as text to inline into a page's <script>. Its exports map lists only `.` and `./package.json`,
 * so the bundle is found beside the package.json. Read once.
 */
let cached: string | undefined;

export function chartLibraryScript(): string {
  if (cached !== undefined) return cached;
  const manifest = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
  const source = readFileSync(join(dirname(manifest), 'dist', 'lightweight-charts.standalone.production.js'), 'utf8');
  // Inlined as the body of a <script> element: these would end it or change how it is parsed.
  if (/<\/script|<!--|<script/i.test(source)) throw new Error(`${manifest}: the chart bundle holds markup that cannot be inlined in a <script>`);
  cached = source;
  return source;
}
