import { dirname } from 'node:path';
import { z } from 'zod';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { ConfigError } from '../../settings/config-error.js';
import { interpolateEnv } from '../../settings/daemon-config/env.js';
import { locatedError, validateSection } from '../../settings/daemon-config/locate.js';
import { healthSchema } from '../../settings/daemon-config/schema.js';
import type { Environment } from '../../settings/secrets.js';
import { readYamlFile } from '../../settings/yaml-source.js';
import { resolveStateDir } from '../../settings/daemon-config/daemon-config.js';
import { isRecord } from './json-record.js';

/** The state directory and the server's URL a daemon config names (the URL may be an error about its port). */
export function readControlConfig(
  file: string,
  env: Environment,
  cwd: string,
): Result<{ readonly stateDir: string; readonly health: Result<string, ConfigError> }, ConfigError> {
  const read = readYamlFile(file);
  if (!read.ok) return read;
  const source = read.value;
  const top = isRecord(source.value) ? source.value : {};
  const { value, missing } = interpolateEnv({ health: top['health'], stateDir: top['stateDir'] }, env);
  const unset = missing[0];
  if (unset !== undefined) return err(locatedError(source, `environment variable ${unset.name} is not set`, unset.path));
  const section = validateSection(source, z.looseObject({ health: healthSchema, stateDir: z.string().min(1).optional() }), value, []);
  if (!section.ok) return section;
  const { host, port, tls } = section.value.health;
  const stateDir = resolveStateDir(section.value.stateDir, { env, cwd, configDir: dirname(file) });
  if (port === 0) return ok({ stateDir, health: err(locatedError(source, 'the daemon listens on any free port (0): pass --url with the port it logged', ['health', 'port'])) });
  return ok({ stateDir, health: ok(`${tls === undefined ? 'http' : 'https'}://${connectHost(host)}:${port}`) });
}

/** A wildcard bind address is reached over loopback; an IPv6 literal needs brackets. */
function connectHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
