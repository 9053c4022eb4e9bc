import { join } from 'node:path';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { Environment } from '../../settings/secrets.js';
import { MIN_TOKEN_LENGTH } from '../control/auth.js';
import { ensureSecretFile } from '../control/token.js';

/** The environment variable holding the signal secret (else the state directory's signal.secret). */
export const SIGNAL_SECRET_ENV = 'STRATD_SIGNAL_SECRET';
/** The signal secret's file in the state directory (mode 0600), written at the first start with a signals section. */
export const SIGNAL_SECRET_FILE = 'signal.secret';

export function signalSecretPath(stateDir: string): string {
  return join(stateDir, SIGNAL_SECRET_FILE);
}

/**
 * The daemon's signal secret, kept like the control token and apart from it (a sender of signals gets
 * no control of the daemon): `STRATD_SIGNAL_SECRET` when set, else `<stateDir>/signal.secret`, created
 * at the first start (32 random bytes, hex, mode 0600). Never printed.
 */
export function ensureSignalSecret(stateDir: string, env: Environment): Result<string, string> {
  const fromEnv = env[SIGNAL_SECRET_ENV]?.trim();
  if (fromEnv !== undefined && fromEnv !== '') {
    return fromEnv.length < MIN_TOKEN_LENGTH ? err(`${SIGNAL_SECRET_ENV} must be at least ${MIN_TOKEN_LENGTH} characters`) : ok(fromEnv);
  }
  return ensureSecretFile(stateDir, signalSecretPath(stateDir), 'signal secret');
}
