import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The standalone production bundle of lightweight-charts (an IIFE defining `LightweightCharts`), found
 * through node's own resolution of the package, so it works from the sources, from dist, with hoisted
 * or nested node_modules and in the Docker image (a production dependency, kept by `npm prune`).
 */
export function lightweightChartsBundle(): string {
  const manifest = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
  return join(dirname(manifest), 'dist', 'lightweight-charts.standalone.production.js');
}
