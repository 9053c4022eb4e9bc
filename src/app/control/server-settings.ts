import { readFileSync } from 'node:fs';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { ConfigError } from '../../settings/config-error.js';
import type { DaemonConfig } from '../../settings/daemon-config/daemon-config.js';
import type { Environment } from '../../settings/secrets.js';
import { readControlToken } from './token.js';

/** The health server's certificate and key, read from health.tls; a file that cannot be read is a ConfigError there. */
export function readHealthTls(config: Pick<DaemonConfig, 'health' | 'errorAt'>): Result<{ cert: string; key: string } | undefined, ConfigError> {
  const tls = config.health.tls;
  if (tls === undefined) return ok(undefined);
  const read = (file: string, field: 'cert' | 'key'): Result<string, ConfigError> => {
    try {
      return ok(readFileSync(file, 'utf8'));
    } catch (error: unknown) {
      return err(config.errorAt(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, ['health', 'tls', field]));
    }
  };
  const cert = read(tls.cert, 'cert');
  if (!cert.ok) return cert;
  const key = read(tls.key, 'key');
  return key.ok ? ok({ cert: cert.value, key: key.value }) : key;
}

/**
 * What `run` refuses in the health settings, checked without starting anything (so `validate` refuses it
 * too): an unreadable TLS file, a short STRATD_HEALTH_TOKEN, a token file others may read or too short.
 * A missing token file is fine: the daemon writes one at its first start.
 */
export function checkHealthSettings(config: Pick<DaemonConfig, 'health' | 'errorAt' | 'stateDir'>, env: Environment): Result<void, ConfigError> {
  const tls = readHealthTls(config);
  if (!tls.ok) return tls;
  const token = readControlToken(config.stateDir, env);
  if (!token.ok) return err(config.errorAt(token.error, ['health']));
  return ok(undefined);
}
