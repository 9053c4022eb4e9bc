import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ConfigError } from '../../settings/config-error.js';
import { interpolateEnv } from '../../settings/daemon-config/env.js';
import { locatedError, validateSection } from '../../settings/daemon-config/locate.js';
import { healthSchema } from '../../settings/daemon-config/schema.js';
import type { Environment } from '../../settings/secrets.js';
import { readYamlFile } from '../../settings/yaml-source.js';
import { resolveStateDir } from '../../settings/daemon-config/daemon-config.js';
import { HEALTH_TOKEN_ENV, isLoopbackHost } from './auth.js';
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

const DEFAULT_URL = 'http://127.0.0.1:9464';
const TIMEOUT_MS = 30_000;

/**
 * --url, else the `health` section of --config (a wildcard bind address means this machine), else
 * 127.0.0.1:9464. The token: STRATD_HEALTH_TOKEN, else the daemon's `control.token` in the state
 * directory --config names. A token is never sent over plain HTTP to another machine.
 */
export function controlAddress(flags: ControlFlags, env: Environment, cwd: string = process.cwd()): Result<ControlAddress, ConfigError> {
  const fromConfig = flags.config === undefined ? ok(undefined) : readControlConfig(resolve(cwd, flags.config), env, cwd);
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

/** The state directory and the server's URL a daemon config names (the URL may be an error about its port). */
function readControlConfig(
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return isRecord(error) && typeof error['message'] === 'string' ? error['message'] : String(error);
}
