import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import type { RankMetric } from '../../sweep/output.js';
import { RANK_METRICS } from '../../sweep/output.js';
import { ConfigError } from '../../settings/config-error.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import { strategyModulePath } from '../daemon/strategy-loader.js';

/** The flags and config look-ups `stratd sweep`, `walkforward` and `montecarlo` share. */

export function paramsOf(config: DaemonConfig, id: string): Readonly<Record<string, unknown>> {
  return config.strategies.find((s) => s.id === id)?.params ?? {};
}

export function moduleFileOf(config: DaemonConfig, id: string): string {
  const module = config.strategies.find((s) => s.id === id)?.module ?? '';
  const file = strategyModulePath(module, dirname(config.file));
  if (file === undefined) throw new ConfigError(`unknown strategy module "${module}"`, { file: config.file });
  return file;
}

export function rankFlag(text: string): RankMetric {
  const metric = RANK_METRICS.find((m) => m === text);
  if (metric === undefined) throw new ConfigError(`--rank ${text}: one of ${RANK_METRICS.join(', ')}`, { path: '--rank' });
  return metric;
}

export function workersFlag(text: string | undefined): number {
  if (text === undefined) return Math.max(1, availableParallelism() - 1);
  if (!/^\d+$/.test(text.trim()) || Number(text) > 256) throw new ConfigError(`--workers ${text}: a whole number from 0 to 256 (0: no worker threads)`, { path: '--workers' });
  return Number(text);
}
