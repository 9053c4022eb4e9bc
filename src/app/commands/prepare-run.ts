import type { Result } from '../../core/result.js';
import { ok } from '../../core/result.js';
import type { ConfigError } from '../../settings/config-error.js';
import { loadDaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import type { Environment } from '../../settings/secrets.js';
import type { StrategyInstance } from '../../engine/strategy/instance.js';
import { checkHealthSettings } from '../control/server-settings.js';
import { crashPointsFromEnv } from '../daemon/crash-points.js';
import { resolveStrategies } from '../daemon/strategies.js';
import { packageFile } from '../package-files.js';
import { DEFAULT_SIM_CONFIG } from '../default-configs.js';

/** The packaged default configuration (paper trading against the embedded simulator). */
export const DEFAULT_DAEMON_CONFIG = packageFile('config/default.yml');

export interface RunFlags {
  readonly config?: string;
  readonly stateDir?: string;
  /** `--time-scale`: market time runs this many times faster than real time (paper mode only). */
  readonly timeScale?: string;
}

/**
 * Loads and checks a daemon config and its strategies' params: everything `run` checks before it connects
 * (`validate` runs exactly this, so a config it accepts is not refused by `run`).
 */
export async function prepareRun(flags: RunFlags, env: Environment): Promise<Result<{ config: DaemonConfig; strategies: StrategyInstance[] }, ConfigError>> {
  const loaded = loadDaemonConfig(flags.config ?? DEFAULT_DAEMON_CONFIG, {
    env,
    defaultSimConfig: DEFAULT_SIM_CONFIG,
    ...(flags.stateDir === undefined ? {} : { stateDirFlag: flags.stateDir }),
  });
  if (!loaded.ok) return loaded;
  // The health server's settings with its environment (the token, TLS files): Daemon.start refuses them otherwise.
  const health = checkHealthSettings(loaded.value, env);
  if (!health.ok) return health;
  const crashPoints = crashPointsFromEnv(env);
  if (!crashPoints.ok) return crashPoints;
  const strategies = await resolveStrategies(loaded.value);
  if (!strategies.ok) return strategies;
  return ok({ config: loaded.value, strategies: strategies.value });
}
