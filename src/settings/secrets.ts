import { knownSecrets } from '../core/secret-text.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { readBoundedFile } from './bounded-file.js';
import { ConfigError } from './config-error.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** A key, a secret or a token is a line of text: a secret file beyond this is not one. */
const MAX_SECRET_FILE_BYTES = 64 * 1024;

/**
 * A secret comes from an environment variable or from a file named in the config (Docker/systemd
 * secrets), never from the YAML body. The variable wins. Undefined when neither is set. A file must be
 * a regular file its owner alone may read (mode 0600 or 0400): a key readable by group or others is
 * refused, naming the file and its mode. Every value found is known to the output scrubber from then on.
 */
export function resolveSecret(envVar: string, file: string | undefined, env: Environment, configFile?: string): Result<string | undefined, ConfigError> {
  const fromEnv = env[envVar];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    knownSecrets.add(fromEnv);
    return ok(fromEnv.trim());
  }
  if (file === undefined) return ok(undefined);
  const at = configFile === undefined ? {} : { file: configFile };
  const read = readBoundedFile(file, MAX_SECRET_FILE_BYTES);
  if (!read.ok) return err(new ConfigError(`secret file ${file}: ${read.error}`, at));
  const mode = read.value.stats.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    const octal = `0${mode.toString(8).padStart(3, '0')}`;
    return err(new ConfigError(`secret file ${file} has mode ${octal}: group or others may access it; allow its owner only (chmod 600 ${file})`, at));
  }
  const text = read.value.text.trim();
  if (text === '') return err(new ConfigError(`secret file ${file} is empty`, at));
  knownSecrets.add(text);
  return ok(text);
}
