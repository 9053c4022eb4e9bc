import { arch, availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import type { BenchResult } from './bench-result.js';

/**
 * A machine counts as quiet when its 1-minute load average at the start is below a quarter of its cores:
 * figures from a busy machine (other builds and tests sharing the cores) are noise, and say so.
 */
export const QUIET_LOAD_PER_CORE = 0.25;

/** The machine the figures were measured on: printed as the first line of every `npm run bench`. */
export function machineDescription(): BenchResult {
  const all = cpus();
  const models = [...new Set(all.map((c) => c.model.trim()))];
  const [load1 = 0, load5 = 0, load15 = 0] = loadavg();
  const cores = all.length;
  const quiet = load1 < QUIET_LOAD_PER_CORE * Math.max(1, cores);
  return {
    name: 'machine',
    figures: {
      cpuModel: models.length === 0 ? 'unknown' : models.join(' + '),
      cpuCores: cores,
      availableParallelism: availableParallelism(),
      totalMemoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
      node: process.version,
      platform: `${platform()} ${release()} ${arch()}`,
      loadAverageAtStart: `${load1.toFixed(2)} ${load5.toFixed(2)} ${load15.toFixed(2)}`,
      quiet: quiet ? 'yes' : `no: 1-minute load ${load1.toFixed(2)} on ${cores} cores (quiet is below ${(QUIET_LOAD_PER_CORE * Math.max(1, cores)).toFixed(2)}); the figures below are noisy`,
    },
  };
}
