import type { z } from 'zod';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ConfigError } from '../config-error.js';
import type { YamlSource } from '../yaml-source.js';
import { formatPath, validateYaml } from '../yaml-source.js';

export type ConfigPath = ReadonlyArray<string | number>;

/** A ConfigError pointing at `path` in the file, or at its deepest ancestor that exists. */
export function locatedError(source: YamlSource, reason: string, path: ConfigPath): ConfigError {
  let at = source.locate(path);
  for (let n = path.length - 1; at.line === undefined && n >= 0; n--) at = source.locate(path.slice(0, n));
  return new ConfigError(reason, { file: source.file, ...at, path: formatPath(path) });
}

/**
 * validateYaml, except that an unknown key is reported at the key itself (zod reports it at the object
 * holding it).
 */
export function validateSection<S extends z.ZodType>(source: YamlSource, schema: S, value: unknown, under: ConfigPath): Result<z.output<S>, ConfigError> {
  const result = schema.safeParse(value);
  if (result.success) return ok(result.data);
  const issue = result.error.issues[0];
  if (issue?.code === 'unrecognized_keys' && issue.keys[0] !== undefined) {
    const key = issue.keys[0];
    return err(locatedError(source, `unknown key "${key}"`, [...under, ...(issue.path as ConfigPath), key]));
  }
  return validateYaml(source, schema, value, under);
}
