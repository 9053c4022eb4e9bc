import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { ConfigError } from '../settings/config-error.js';
import type { DaemonConfig } from '../settings/daemon-config.js';
import type { Environment } from '../settings/secrets.js';

/** The environment variable holding the health/control server's bearer token. */
export const HEALTH_TOKEN_ENV = 'STRATD_HEALTH_TOKEN';
const MIN_TOKEN_LENGTH = 16;

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h.startsWith('::ffff:127.');
  return false;
}

/**
 * The bearer token of the health server from the environment: required when it binds beyond loopback,
 * optional (but then enforced) on loopback. A missing or short token is a ConfigError at health.host.
 */
export function healthToken(config: Pick<DaemonConfig, 'health' | 'errorAt'>, env: Environment): Result<string | undefined, ConfigError> {
  const token = env[HEALTH_TOKEN_ENV]?.trim();
  if (token !== undefined && token !== '') {
    if (token.length < MIN_TOKEN_LENGTH) return err(config.errorAt(`${HEALTH_TOKEN_ENV} must be at least ${MIN_TOKEN_LENGTH} characters`, ['health', 'host']));
    return ok(token);
  }
  if (isLoopbackHost(config.health.host)) return ok(undefined);
  return err(
    config.errorAt(`the health server binds beyond loopback (${config.health.host}): set a bearer token in ${HEALTH_TOKEN_ENV}, or bind 127.0.0.1`, ['health', 'host']),
  );
}

/** Compares an `Authorization` header with the token in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (match === null) return false;
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1] ?? ''), digest(token));
}
