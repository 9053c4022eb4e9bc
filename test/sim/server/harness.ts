import { request } from 'node:http';
import type { TimeSource } from '../../../src/core/clock.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { depthWeight, ENDPOINTS } from '../../../src/protocol/endpoints.js';
import type { EndpointDef } from '../../../src/protocol/endpoints.js';
import { signText } from '../../../src/protocol/signer.js';
import type { KeyringEntry, RouteContext, SimHttpServerOptions, SimRoute } from '../../../src/sim/server/index.js';
import { routeError, routeOk, SimHttpServer } from '../../../src/sim/server/index.js';

export const ADMIN_TOKEN = 'adminToken-0123456789abcdef';
/** The docs' published example secret (API-NOTES §1.5). */
export const DOCS_SECRET = '30lfjDT51iOG1kYZnDoLNynOyMdIcmQyO1XYfxzYOmQfx9tjiI98Pzio4uhZ0Uk2';

export const TRADER: KeyringEntry = { apiKey: 'traderKey0000000001', secret: 'traderSecret000000001', userId: '1001', readOnly: false, accountType: 'FUTURES' };
export const TRADER2: KeyringEntry = { apiKey: 'traderKey0000000002', secret: 'traderSecret000000002', userId: '1001', readOnly: false, accountType: 'FUTURES' };
export const READ_ONLY: KeyringEntry = { apiKey: 'readOnlyKey00000003', secret: 'readOnlySecret000003', userId: '1001', readOnly: true, accountType: 'FUTURES' };
export const FOLLOWER: KeyringEntry = { apiKey: 'followerKey00000004', secret: 'followerSecret000004', userId: '1004', readOnly: false, accountType: 'COPY_TRADING' };
export const FOLLOWER_RO: KeyringEntry = { apiKey: 'followerRoKey000005', secret: 'followerRoSecret0005', userId: '1004', readOnly: true, accountType: 'COPY_TRADING' };
export const DOCS_KEY: KeyringEntry = { apiKey: 'docsExampleKey00006', secret: DOCS_SECRET, userId: '1006', readOnly: false, accountType: 'FUTURES' };
export const KEYS: readonly KeyringEntry[] = [TRADER, TRADER2, READ_ONLY, FOLLOWER, FOLLOWER_RO, DOCS_KEY];

/** What an echo route answers: everything the server handed it. */
export interface Echo {
  readonly params: Record<string, string | undefined>;
  readonly json: unknown;
  readonly userId: string | undefined;
  readonly category: string;
  readonly now: number;
  readonly pathParams: Readonly<Record<string, string>>;
}

function echo(ctx: RouteContext): Echo {
  return {
    params: Object.fromEntries(ctx.params.names().map((name) => [name, ctx.params.get(name)])),
    json: ctx.json ?? null,
    userId: ctx.caller?.userId,
    category: ctx.category,
    now: ctx.now,
    pathParams: ctx.pathParams,
  };
}

/** Tiny routes over real endpoint definitions; every handler call is counted by endpoint label. */
export class TestRoutes {
  readonly calls = new Map<string, number>();

  count(e: EndpointDef): number {
    return this.calls.get(`${e.method} ${e.path}`) ?? 0;
  }

  private counted(route: SimRoute): SimRoute {
    const label = `${route.endpoint.method} ${route.endpoint.path}`;
    return {
      ...route,
      handle: (ctx) => {
        this.calls.set(label, (this.calls.get(label) ?? 0) + 1);
        return route.handle(ctx);
      },
    };
  }

  all(): SimRoute[] {
    const legs = (ctx: { readonly json: unknown }): number => (Array.isArray(ctx.json) ? ctx.json.length : 1);
    const routes: SimRoute[] = [
      { endpoint: ENDPOINTS.time, handle: (ctx) => routeOk({ serverTime: ctx.now }) },
      { endpoint: ENDPOINTS.ping, handle: () => routeOk({}) },
      { endpoint: ENDPOINTS.depth, weightOf: (p) => depthWeight(p.has('limit') ? Number(p.get('limit')) : undefined), handle: (ctx) => routeOk(echo(ctx)) },
      { endpoint: ENDPOINTS.exchangeInfo, handle: () => { throw new Error('boom'); } },
      { endpoint: ENDPOINTS.markPrice, handle: () => ({ kind: 'raw', status: 200, body: '' }) },
      { endpoint: ENDPOINTS.futuresBalance, handle: (ctx) => routeOk(echo(ctx)) },
      { endpoint: ENDPOINTS.positions, handle: () => routeError(-1121, 'Invalid symbol.') },
      { endpoint: ENDPOINTS.orderV1Create, handle: (ctx) => routeOk(echo(ctx)) },
      { endpoint: ENDPOINTS.orderV1Cancel, handle: (ctx) => routeOk(echo(ctx)) },
      { endpoint: ENDPOINTS.leverage, handle: (ctx) => routeOk(echo(ctx)) },
      { endpoint: ENDPOINTS.batchOrdersV1, ordersOf: legs, handle: (ctx) => routeOk(echo(ctx)) },
      { endpoint: ENDPOINTS.orderV2Create, handle: (ctx) => routeOk(echo(ctx)) },
      { endpoint: ENDPOINTS.orderV2Get, handle: () => routeError(-2013, 'Order does not exist.') },
      { endpoint: ENDPOINTS.batchOrdersV2, ordersOf: legs, handle: (ctx) => routeOk(echo(ctx)) },
      { endpoint: ENDPOINTS.batchCancelV2, handle: () => routeOk(null) },
      { endpoint: ENDPOINTS.listenKeyCreate, handle: (ctx) => routeOk({ listenKey: `key-of-${ctx.caller?.userId ?? 'nobody'}` }) },
      { endpoint: ENDPOINTS.followerConfigGet, requiresAccountType: 'COPY_TRADING', handle: (ctx) => routeOk(echo(ctx)) },
      { endpoint: ENDPOINTS.followerUnfollow, requiresAccountType: 'COPY_TRADING', handle: () => routeOk(null) },
      { endpoint: ENDPOINTS.followerConfigSet, requiresAccountType: 'COPY_TRADING', handle: () => routeOk(null) },
    ];
    return routes.map((route) => this.counted(route));
  }
}

export interface TestServer {
  readonly server: SimHttpServer;
  readonly routes: TestRoutes;
  readonly baseUrl: string;
  readonly port: number;
}

/** A server on 127.0.0.1:0 with the test routes, on a VirtualClock unless another time source is given. */
export async function startTestServer(options: Partial<SimHttpServerOptions> = {}, time: TimeSource = new VirtualClock()): Promise<TestServer> {
  const server = new SimHttpServer({ time, seed: 7, keys: KEYS, adminToken: ADMIN_TOKEN, host: '127.0.0.1', port: 0, ...options });
  const routes = new TestRoutes();
  server.mount(routes.all());
  const { port, baseUrl } = await server.start();
  return { server, routes, baseUrl, port };
}

export interface WireReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export interface WireRequest {
  readonly method: string;
  /** Path with the raw query, sent byte for byte. */
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** One HTTP exchange on a fresh connection, bytes exactly as given. */
export function send(port: number, req: WireRequest): Promise<WireReply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, method: req.method, path: req.target, headers: withLength(req), agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const headers: Record<string, string | undefined> = {};
          for (const [name, value] of Object.entries(res.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    if (req.body !== undefined) outgoing.write(req.body);
    outgoing.end();
  });
}

/** Starts an exchange that will not be answered; `settled` tells whether anything came back, `abort` ends it. */
export function sendUnanswered(port: number, req: WireRequest): { readonly outcome: Promise<'reply' | 'closed'>; readonly abort: () => void } {
  let abort = (): void => undefined;
  const outcome = new Promise<'reply' | 'closed'>((resolve) => {
    const outgoing = request({ host: '127.0.0.1', port, method: req.method, path: req.target, headers: withLength(req), agent: false }, () => resolve('reply'));
    outgoing.on('error', () => resolve('closed'));
    outgoing.on('close', () => resolve('closed'));
    if (req.body !== undefined) outgoing.write(req.body);
    outgoing.end();
    abort = () => outgoing.destroy();
  });
  return { outcome, abort };
}

function withLength(req: WireRequest): Record<string, string> {
  const headers = { ...req.headers };
  if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
  return headers;
}

export function json(reply: WireReply): unknown {
  return JSON.parse(reply.body) as unknown;
}

export function sign(key: KeyringEntry, text: string): string {
  return signText(key.secret, text);
}

/** A signed GET/DELETE target: `path?query&signature=hex` (query already holding timestamp etc.). */
export function signedTarget(key: KeyringEntry, path: string, query: string): string {
  return `${path}?${query}&signature=${sign(key, query)}`;
}

export function apiKeyHeader(key: KeyringEntry, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { 'X-BB-APIKEY': key.apiKey, ...extra };
}

export const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' } as const;
export const JSON_TYPE = { 'Content-Type': 'application/json' } as const;

/** Waits (on the event loop, not on a timer budget) until the condition holds. */
export async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}
