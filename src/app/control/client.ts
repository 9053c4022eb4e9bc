import { resolve } from 'node:path';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ConfigError } from '../../settings/config-error.js';
import type { Environment } from '../../settings/secrets.js';
import { HEALTH_TOKEN_ENV, isLoopbackHost } from './auth.js';
import { isRecord } from './json-record.js';
import { readControlToken } from './token.js';

/** `--url` and `--config` of the control commands. */
export interface ControlFlags {
  readonly url?: string;
  readonly config?: string;
}

/** Where the running daemon's health and control server answers, and the token it wants. */
export interface ControlAddress {
  readonly url: string;
  readonly token?: string;
}

export interface ControlReplyBody {
  readonly status: number;
  readonly body: unknown;
}

export { isRecord } from './json-record.js';

const DEFAULT_URL = 'http://127.0.0.1:9464';
const TIMEOUT_MS = 30_000;

/**
 * --url, else the `health` section of --config (a wildcard bind address means this machine), else
 * 127.0.0.1:9464. The token: STRATD_HEALTH_TOKEN, else the daemon's `control.token` in the state
 * directory --config names. A token is never sent over plain HTTP to another machine.
 */
export async function controlAddress(flags: ControlFlags, env: Environment, cwd: string = process.cwd()): Promise<Result<ControlAddress, ConfigError>> {
  // The config reader (YAML, the daemon config's schemas) loads only with --config: `status --url` needs none of it.
  const fromConfig = flags.config === undefined ? ok(undefined) : (await import('./client-config.js')).readControlConfig(resolve(cwd, flags.config), env, cwd);
  if (!fromConfig.ok) return fromConfig;
  const token = readControlToken(fromConfig.value?.stateDir, env);
  if (!token.ok) return err(new ConfigError(token.error, { path: flags.config === undefined ? HEALTH_TOKEN_ENV : 'stateDir' }));
  let url: string;
  if (flags.url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(flags.url);
    } catch {
      return err(new ConfigError(`--url ${flags.url}: not a URL such as ${DEFAULT_URL}`, { path: '--url' }));
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return err(new ConfigError(`--url ${flags.url}: http or https`, { path: '--url' }));
    url = `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
  } else if (fromConfig.value !== undefined) {
    const health = fromConfig.value.health;
    if (!health.ok) return health;
    url = health.value;
  } else {
    url = DEFAULT_URL;
  }
  const parsed = new URL(url);
  if (token.value !== undefined && parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    return err(new ConfigError(`${url}: the control token is never sent over plain HTTP to another machine: use https (health.tls) or run the command on the daemon's machine`, { path: '--url' }));
  }
  return ok({ url, ...(token.value === undefined ? {} : { token: token.value }) });
}

/** One request to the daemon; a reply of any status comes back as a value, no reply as an error line. */
export async function controlCall(address: ControlAddress, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Result<ControlReplyBody, string>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (address.token !== undefined) headers['authorization'] = `Bearer ${address.token}`;
  if (method === 'POST') headers['content-type'] = 'application/json';
  let reply: Response;
  try {
    reply = await fetch(`${address.url}${path}`, {
      method,
      headers,
      ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (error: unknown) {
    const cause = messageOf(isRecord(error) && error['cause'] !== undefined ? error['cause'] : error);
    return err(`cannot reach the daemon at ${address.url} (${cause}): is it running? (--url or --config say where)`);
  }
  const text = await reply.text();
  try {
    return ok({ status: reply.status, body: text === '' ? {} : (JSON.parse(text) as unknown) });
  } catch {
    return err(`${address.url}${path} answered ${reply.status} with a body that is not JSON`);
  }
}

/** The `error` of a reply body, or its status. */
export function replyError(reply: ControlReplyBody): string {
  const message = isRecord(reply.body) && typeof reply.body['error'] === 'string' ? reply.body['error'] : `HTTP ${reply.status}`;
  if (reply.status === 401) return `${message} (the daemon wants its token: --config names its state directory, whose control.token is read, or set ${HEALTH_TOKEN_ENV})`;
  return message;
}

function messageOf(error: unknown): string {
  return isRecord(error) && typeof error['message'] === 'string' ? error['message'] : String(error);
}
