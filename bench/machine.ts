import { arch, availableParallelism, cpus, platform, release, totalmem } from 'node:os';
import type { BenchResult } from './bench-result.js';

/** The machine the figures were measured on: printed as the first line of every `npm run bench`. */
export function machineDescription(): BenchResult {
  const all = cpus();
  const models = [...new Set(all.map((c) => c.model.trim()))];
  return {
    name: 'machine',
    figures: {
      cpuModel: models.length === 0 ? 'unknown' : models.join(' + '),
      cpuCores: all.length,
      availableParallelism: availableParallelism(),
      totalMemoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
      node: process.version,
      platform: `${platform()} ${release()} ${arch()}`,
    },
  };
}
