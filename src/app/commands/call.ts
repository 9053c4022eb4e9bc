import { ENDPOINTS } from '../../protocol/endpoints.js';
import type { EndpointDef, HttpMethod } from '../../protocol/endpoints.js';
import type { HttpPort } from '../../venue/http-port.js';
import { HttpTransportError } from '../../venue/http-port.js';
import type { ExchangeClient } from '../../venue/exchange-client.js';
import { orderedParams } from '../../core/ordered-params.js';
import type { OrderedParams } from '../../core/ordered-params.js';
import { encodeParams } from '../../core/ordered-params.js';
import { ConfigError } from '../../settings/config-error.js';
import { parseWireJson } from '../../protocol/wire-json.js';

export interface CallArgs {
  readonly method: string;
  readonly path: string;
  readonly params: readonly string[];
  readonly json?: string;
  /** Sign nothing (a path the table does not know is treated as signed). */
  readonly public?: boolean;
}

export interface CallOutput {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

/** `stratd call` against the exchange: any endpoint, signed like the typed methods are. */
export async function callExchange(client: ExchangeClient, args: CallArgs): Promise<CallOutput> {
  const method = parseMethod(args.method, METHODS);
  const endpoint = findEndpoint(method, args.path, args.public === true);
  const params = parseKeyValues(args.params);
  const json = args.json === undefined ? undefined : checkJson(args.json);
  const sendsBody = method === 'POST' || method === 'PUT';
  const request =
    json !== undefined
      ? { endpoint, query: params, rawJson: json }
      : sendsBody && endpoint.wire === 'v2'
        ? { endpoint, json: Object.fromEntries(params) }
        : sendsBody
          ? { endpoint, form: params }
          : { endpoint, query: params };
  const reply = await client.rest.callRaw(request);
  if (!reply.ok) {
    return { exitCode: 1, stdout: '', stderr: `error: ${reply.error.message}\n${JSON.stringify(reply.error.toJSON())}\n` };
  }
  return { exitCode: 0, stdout: `${JSON.stringify(reply.value.body, null, 2)}\n`, stderr: '' };
}

/** `stratd call --catalog` against the catalog service, with the Bearer token. */
export async function callCatalog(http: HttpPort, baseUrl: string, token: string, args: CallArgs, timeoutMs: number): Promise<CallOutput> {
  const method = parseMethod(args.method, [...METHODS, 'PATCH'] as const);
  const params = parseKeyValues(args.params);
  const json = args.json === undefined ? undefined : checkJson(args.json);
  const hasBody = method === 'POST' || method === 'PATCH' || method === 'PUT';
  const query = hasBody && json === undefined ? '' : encodeParams(params);
  const body = json ?? (hasBody ? JSON.stringify(Object.fromEntries(params)) : undefined);
  const url = `${baseUrl.replace(/\/+$/, '')}${args.path}${query === '' ? '' : `?${query}`}`;
  try {
    const reply = await http.send({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
      timeoutMs,
    });
    let parsed: unknown = reply.body;
    try {
      parsed = parseWireJson(reply.body);
    } catch {
      // not JSON: printed as text
    }
    const text = typeof parsed === 'string' ? parsed : JSON.stringify(parsed, null, 2);
    const failed = reply.status >= 400 || (typeof parsed === 'object' && parsed !== null && (parsed as { success?: unknown }).success === false);
    if (!failed) return { exitCode: 0, stdout: `${text}\n`, stderr: '' };
    const error = (parsed as { error?: { code?: unknown; message?: unknown; field?: unknown } } | null)?.error;
    const summary = error === undefined ? `HTTP ${reply.status}` : `[${String(error.code)}] ${String(error.message)}${error.field === undefined ? '' : ` (field ${String(error.field)})`}`;
    return { exitCode: 1, stdout: '', stderr: `error: ${method} ${args.path}: ${summary}\n${text}\n` };
  } catch (error: unknown) {
    if (!(error instanceof HttpTransportError)) throw error;
    return { exitCode: 1, stdout: '', stderr: `error: ${method} ${args.path}: ${error.message}\n` };
  }
}

function parseMethod<M extends string>(text: string, allowed: readonly M[]): M {
  const upper = text.toUpperCase();
  const found = allowed.find((m) => m === upper);
  if (found === undefined) throw new ConfigError(`unknown HTTP method "${text}" (use ${allowed.join(', ')})`, { path: 'METHOD' });
  return found;
}

function findEndpoint(method: HttpMethod, path: string, isPublic: boolean): EndpointDef {
  if (!path.startsWith('/')) throw new ConfigError(`the path must start with "/", got "${path}"`, { path: 'PATH' });
  for (const def of Object.values(ENDPOINTS) as EndpointDef[]) {
    if (def.method !== method) continue;
    const pattern = new RegExp(`^${def.path.replace(/\{\w+\}/g, '[^/]+')}$`);
    if (pattern.test(path)) return { ...def, path, ...(isPublic ? { security: 'NONE' as const } : {}) };
  }
  return {
    method,
    path,
    security: isPublic ? 'NONE' : 'USER_DATA',
    weight: 1,
    ordersBudget: false,
    wire: path.startsWith('/api/v2/') ? 'v2' : 'v1',
    write: method !== 'GET',
    doc: '000',
  };
}

function parseKeyValues(pairs: readonly string[]): OrderedParams {
  const record: Record<string, string> = {};
  const out: Array<readonly [string, string]> = [];
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ConfigError(`parameters are key=value, got "${pair}"`, { path: 'PARAMS' });
    out.push([pair.slice(0, eq), pair.slice(eq + 1)]);
    record[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out.length === 0 ? orderedParams({}) : out;
}

function checkJson(text: string): string {
  try {
    parseWireJson(text);
  } catch (error: unknown) {
    throw new ConfigError(`--json is not valid JSON: ${(error as Error).message}`, { path: '--json' });
  }
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) throw new ConfigError('--json must be an object or an array', { path: '--json' });
  return trimmed;
}
