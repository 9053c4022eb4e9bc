import { readFileSync } from 'node:fs';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { ConfigError } from './config-error.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * A secret comes from an environment variable or from a file named in the config (Docker/systemd
 * secrets), never from the YAML body. The variable wins. Undefined when neither is set.
 */
export function resolveSecret(envVar: string, file: string | undefined, env: Environment, configFile?: string): Result<string | undefined, ConfigError> {
  const fromEnv = env[envVar];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return ok(fromEnv.trim());
  if (file === undefined) return ok(undefined);
  try {
    const text = readFileSync(file, 'utf8').trim();
    if (text === '') return err(new ConfigError(`secret file ${file} is empty`, configFile === undefined ? {} : { file: configFile }));
    return ok(text);
  } catch (error: unknown) {
    return err(new ConfigError(`cannot read secret file ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, configFile === undefined ? {} : { file: configFile }));
  }
}
