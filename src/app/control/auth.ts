import { isIP } from 'node:net';
import { isLoopbackHost } from '../../core/loopback.js';
import { bearerMatches, constantTimeEquals } from '../../core/secret-compare.js';

export { bearerMatches, constantTimeEquals, isLoopbackHost };

/** The environment variable holding the health/control server's bearer token (else the state dir's control.token). */
export const HEALTH_TOKEN_ENV = 'STRATD_HEALTH_TOKEN';
export const MIN_TOKEN_LENGTH = 16;

/** 0.0.0.0 and :: listen on every interface. */
export function isWildcardHost(host: string): boolean {
  const h = host.trim().replace(/^\[(.*)\]$/, '$1');
  return h === '0.0.0.0' || h === '::';
}

/**
 * The `Host` values a request may carry, as `name:port` in lower case: the loopback names, the bound
 * address (for a wildcard bind, every address of this machine's interfaces) and the names the operator
 * allowed. Any other Host is a request meant for another server, or a web page that rebound a DNS
 * name to this machine.
 */
export function allowedHosts(bound: string, port: number, interfaceAddresses: readonly string[], extra: readonly string[]): ReadonlySet<string> {
  const names = ['127.0.0.1', 'localhost', '::1', ...extra];
  names.push(...(isWildcardHost(bound) ? interfaceAddresses : [bound]));
  return new Set(names.map((name) => `${bracketed(name.trim().toLowerCase())}:${port}`));
}

/** Whether a request's Host header is one of `allowed` (absent: not allowed). */
export function hostAllowed(header: string | undefined, allowed: ReadonlySet<string>): boolean {
  return header !== undefined && allowed.has(header.trim().toLowerCase());
}

function bracketed(name: string): string {
  const bare = name.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) === 6 ? `[${bare}]` : bare;
}
