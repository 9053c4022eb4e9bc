import { isAbsolute, resolve } from 'node:path';
import type { Result } from '../../core/result.js';
import { knownSecrets } from '../../core/secret-text.js';
import { err, ok } from '../../core/result.js';
import type { ApiCredentials } from '../../venue/credentials.js';
import type { ConfigError } from '../config-error.js';
import { isVariableReference } from './env.js';
import type { ConfigPath } from './locate.js';
import { locatedError } from './locate.js';
import type { Environment } from '../secrets.js';
import { resolveSecret } from '../secrets.js';
import type { YamlSource } from '../yaml-source.js';

/** Fields of the YAML that hold secrets: each may only be written as one `${NAME}` reference. */
export const SECRET_FIELDS: readonly ConfigPath[] = [
  ['exchange', 'apiKey'],
  ['exchange', 'apiSecret'],
  ['exchange', 'follower', 'apiKey'],
  ['exchange', 'follower', 'apiSecret'],
  ['catalog', 'token'],
];

/** Refuses a secret written into the YAML body (checked before interpolation, on the raw text). */
export function checkSecretReferences(source: YamlSource, raw: unknown, unusedSection: string): Result<void, ConfigError> {
  for (const path of SECRET_FIELDS) {
    if (path[0] === unusedSection) continue;
    const value = valueAt(raw, path);
    if (value === undefined || isVariableReference(value)) continue;
    const field = String(path[path.length - 1]);
    return err(
      locatedError(source, `secrets are never read from the YAML body: write ${field}: \${SOME_VARIABLE} and set that environment variable, or name a file with ${field}File`, path),
    );
  }
  return ok(undefined);
}

/** The value at `path` of a plain JS tree, undefined when absent. */
export function valueAt(tree: unknown, path: ConfigPath): unknown {
  let node = tree;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** A section without its secret fields (those are resolved apart, never passed through a schema). */
export function withoutKeys(section: unknown, keys: readonly string[]): unknown {
  if (typeof section !== 'object' || section === null || Array.isArray(section)) return section;
  return Object.fromEntries(Object.entries(section).filter(([k]) => !keys.includes(k)));
}

export interface WrittenCredentials {
  /** After interpolation: the variable's value. */
  readonly apiKey?: string | undefined;
  readonly apiSecret?: string | undefined;
  readonly apiKeyFile?: string | undefined;
  readonly apiSecretFile?: string | undefined;
}

/**
 * A key pair from `${NAME}` references, else the default variables (envKey/envSecret), else files
 * (relative to the YAML file). Undefined when none is given; one half alone is an error.
 */
export function resolveCredentials(
  source: YamlSource,
  written: WrittenCredentials,
  defaults: { readonly envKey: string; readonly envSecret: string },
  at: ConfigPath,
  env: Environment,
  configDir: string,
): Result<ApiCredentials | undefined, ConfigError> {
  const file = (f: string | undefined): string | undefined => (f === undefined || isAbsolute(f) ? f : resolve(configDir, f));
  knownSecrets.add(written.apiKey);
  knownSecrets.add(written.apiSecret);
  const key = written.apiKey !== undefined ? ok(written.apiKey) : resolveSecret(defaults.envKey, file(written.apiKeyFile), env, source.file);
  if (!key.ok) return err(locatedError(source, key.error.reason, [...at, 'apiKeyFile']));
  const secret = written.apiSecret !== undefined ? ok(written.apiSecret) : resolveSecret(defaults.envSecret, file(written.apiSecretFile), env, source.file);
  if (!secret.ok) return err(locatedError(source, secret.error.reason, [...at, 'apiSecretFile']));
  if (key.value === undefined && secret.value === undefined) return ok(undefined);
  if (key.value === undefined || secret.value === undefined) {
    const missing = key.value === undefined ? `the API key (apiKey: \${VARIABLE}, ${defaults.envKey} or apiKeyFile)` : `the API secret (apiSecret: \${VARIABLE}, ${defaults.envSecret} or apiSecretFile)`;
    return err(locatedError(source, `give both the API key and the API secret: ${missing} is missing`, at));
  }
  return ok({ apiKey: key.value, apiSecret: secret.value });
}
