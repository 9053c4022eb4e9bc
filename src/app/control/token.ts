import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { Environment } from '../../settings/secrets.js';
import { HEALTH_TOKEN_ENV, MIN_TOKEN_LENGTH } from './auth.js';

/** The control token's file in the state directory (mode 0600), written at the daemon's first start. */
export const CONTROL_TOKEN_FILE = 'control.token';

const TOKEN_BYTES = 32;

/** Where the daemon's control token is and where it came from. */
export interface ControlToken {
  readonly token: string;
  /** The file it is in; undefined when it came from the environment. */
  readonly file: string | undefined;
}

export function controlTokenPath(stateDir: string): string {
  return join(stateDir, CONTROL_TOKEN_FILE);
}

/**
 * The daemon's token: `STRATD_HEALTH_TOKEN` when set, else `<stateDir>/control.token`, created at the
 * first start (32 random bytes, hex, mode 0600, never replaced). A file others may read, or one that
 * is too short, is refused: an error line naming the file.
 */
export function ensureControlToken(stateDir: string, env: Environment): Result<ControlToken, string> {
  const fromEnv = tokenFromEnv(env);
  if (!fromEnv.ok) return fromEnv;
  if (fromEnv.value !== undefined) return ok({ token: fromEnv.value, file: undefined });
  const file = controlTokenPath(stateDir);
  const existing = readTokenFile(file);
  if (!existing.ok || existing.value !== undefined) return existing.ok ? ok({ token: existing.value ?? '', file }) : existing;
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    // `wx`: a token another start wrote meanwhile is kept, not overwritten.
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, `${randomBytes(TOKEN_BYTES).toString('hex')}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (error: unknown) {
    if (codeOf(error) !== 'EEXIST') return err(`cannot write the control token ${file}: ${messageOf(error)}`);
  }
  const written = readTokenFile(file);
  if (!written.ok) return written;
  if (written.value === undefined) return err(`the control token ${file} vanished while it was written`);
  return ok({ token: written.value, file });
}

/**
 * What the control commands send: `STRATD_HEALTH_TOKEN` when set, else the token file of the state
 * directory when there is one (undefined without either: the daemon will answer 401).
 */
export function readControlToken(stateDir: string | undefined, env: Environment): Result<string | undefined, string> {
  const fromEnv = tokenFromEnv(env);
  if (!fromEnv.ok || fromEnv.value !== undefined || stateDir === undefined) return fromEnv;
  return readTokenFile(controlTokenPath(stateDir));
}

function tokenFromEnv(env: Environment): Result<string | undefined, string> {
  const token = env[HEALTH_TOKEN_ENV]?.trim();
  if (token === undefined || token === '') return ok(undefined);
  if (token.length < MIN_TOKEN_LENGTH) return err(`${HEALTH_TOKEN_ENV} must be at least ${MIN_TOKEN_LENGTH} characters`);
  return ok(token);
}

/** The token in `file`; undefined when there is no such file. */
function readTokenFile(file: string): Result<string | undefined, string> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error: unknown) {
    if (codeOf(error) === 'ENOENT') return ok(undefined);
    return err(`cannot read the control token ${file}: ${messageOf(error)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return err(`the control token ${file} is not a regular file`);
    if ((stat.mode & 0o077) !== 0) return err(`the control token ${file} may be read by others (mode ${(stat.mode & 0o777).toString(8)}): chmod 600 it, or delete it for a new one`);
    const token = readFileSync(fd, 'utf8').trim();
    if (token.length < MIN_TOKEN_LENGTH) return err(`the control token ${file} is shorter than ${MIN_TOKEN_LENGTH} characters: delete it for a new one`);
    return ok(token);
  } finally {
    closeSync(fd);
  }
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
