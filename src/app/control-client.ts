import { resolve } from 'node:path';
import { z } from 'zod';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import { ConfigError } from '../settings/config-error.js';
import { interpolateEnv } from '../settings/daemon-config-env.js';
import { locatedError, validateSection } from '../settings/daemon-config-locate.js';
import { healthSchema } from '../settings/daemon-config-schema.js';
import type { Environment } from '../settings/secrets.js';
import { readYamlFile } from '../settings/yaml-source.js';
import { HEALTH_TOKEN_ENV } from './control-auth.js';

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

/** --url, else the `health` section of --config (a wildcard bind address means this machine), else 127.0.0.1:9464. */
export function controlAddress(flags: ControlFlags, env: Environment, cwd: string = process.cwd()): Result<ControlAddress, ConfigError> {
  const token = env[HEALTH_TOKEN_ENV]?.trim();
  const withToken = (url: string): ControlAddress => ({ url: url.replace(/\/+$/, ''), ...(token === undefined || token === '' ? {} : { token }) });
  if (flags.url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(flags.url);
    } catch {
      return err(new ConfigError(`--url ${flags.url}: not a URL such as ${DEFAULT_URL}`, { path: '--url' }));
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return err(new ConfigError(`--url ${flags.url}: http or https`, { path: '--url' }));
    return ok(withToken(`${parsed.origin}${parsed.pathname}`));
  }
  if (flags.config === undefined) return ok(withToken(DEFAULT_URL));
  const read = readYamlFile(resolve(cwd, flags.config));
  if (!read.ok) return read;
  const source = read.value;
  const raw = isRecord(source.value) ? source.value['health'] : undefined;
  const { value, missing } = interpolateEnv(raw, env);
  const unset = missing[0];
  if (unset !== undefined) return err(locatedError(source, `environment variable ${unset.name} is not set`, ['health', ...unset.path]));
  const section = validateSection(source, z.looseObject({ health: healthSchema }), { health: value }, []);
  if (!section.ok) return section;
  const { host, port } = section.value.health;
  if (port === 0) return err(locatedError(source, 'the daemon listens on any free port (0): pass --url with the port it logged', ['health', 'port']));
  return ok(withToken(`http://${connectHost(host)}:${port}`));
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
  if (reply.status === 401) return `${message} (the daemon wants the token of ${HEALTH_TOKEN_ENV})`;
  return message;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return isRecord(error) && typeof error['message'] === 'string' ? error['message'] : String(error);
}
