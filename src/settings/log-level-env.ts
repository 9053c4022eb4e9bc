import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { ConfigError } from './config-error.js';
import type { LogLevel } from './daemon-config/types.js';
import type { Environment } from './secrets.js';

const LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The variables that override `log.level`, strongest first. */
export const LOG_LEVEL_VARIABLES = ['STRATD_LOG_LEVEL', 'LOG_LEVEL'] as const;

/**
 * The log level: STRATD_LOG_LEVEL, else LOG_LEVEL, else the config's. A variable set to something that
 * is not a level is a mistake named with the variable (not silently ignored).
 */
export function logLevelFrom(env: Environment, configured: LogLevel): Result<LogLevel, ConfigError> {
  for (const name of LOG_LEVEL_VARIABLES) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    const level = LEVELS.find((l) => l === raw.toLowerCase());
    if (level === undefined) return err(new ConfigError(`environment variable ${name} must be one of ${LEVELS.join(', ')}, got "${raw}"`));
    return ok(level);
  }
  return ok(configured);
}
