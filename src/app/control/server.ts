import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Registry } from 'prom-client';
import type { Clock } from '../../core/clock.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { Logger } from '../../core/logger.js';
import { ConfigError } from '../../settings/config-error.js';
import { AuthThrottle } from './auth-throttle.js';
import { allowedHosts, bearerMatches, hostAllowed, isLoopbackHost } from './auth.js';
import type { ConnectionLimits } from './connection-guard.js';
import { DEFAULT_CONNECTION_LIMITS, guardConnections } from './connection-guard.js';
import { plainJson } from '../follower/output.js';

export interface HealthReport {
  readonly healthy: boolean;
  /** Why not healthy (shown in the 503 body). */
  readonly reasons?: readonly string[];
}

/** Who sent a request: its remote address and port (every control request has authenticated). */
export interface Caller {
  readonly address: string;
  readonly port: number;
}

/** A POST under /control/, its JSON body parsed (`{}` when empty). */
export interface ControlRequest {
  readonly path: string;
  readonly body: unknown;
  readonly caller: Caller;
}

export interface ControlReply {
  readonly status: number;
  readonly body: unknown;
}

export type ControlHandler = (request: ControlRequest) => Promise<ControlReply>;

/** The web dashboard under /ui: its static files (no token: they hold no data) and its event stream. */
export interface DashboardRoutes {
  /** The file served at `path` (under /ui); undefined: 404. */
  asset(path: string): { readonly type: string; readonly body: Buffer; readonly headers: Readonly<Record<string, string>> } | undefined;
  /** GET /ui/events once authenticated: holds the response open as Server-Sent Events; false when too many are open. */
  stream(res: ServerResponse): boolean;
}

export interface HealthServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 9464; 0 picks a free port. */
  readonly port?: number;
  readonly registry: Registry;
  /** Liveness, asked on every /healthz; absent means healthy while the process answers. */
  readonly check?: () => HealthReport | Promise<HealthReport>;
  /** Readiness, asked on every /readyz; absent: no /readyz. */
  readonly ready?: () => HealthReport | Promise<HealthReport>;
  /** The JSON of GET /status; absent: no /status. */
  readonly status?: () => unknown;
  /** POST /control/…; absent: no control endpoint. */
  readonly control?: ControlHandler;
  /** GET /ui (the page) and /ui/events (its pushed updates, behind the token); absent: no dashboard. */
  readonly dashboard?: DashboardRoutes;
  /**
   * The bearer token /status and /control/… always require; /readyz and /metrics too when bound beyond
   * loopback. /healthz never does.
   */
  readonly token: string;
  /** Failed authentications back off on this clock. */
  readonly clock: Clock;
  /** Host names (besides loopback and the bound address) that requests may name in `Host`. */
  readonly allowedHosts?: readonly string[];
  readonly limits?: Partial<ConnectionLimits>;
  /** PEM certificate and key: the server speaks HTTPS. */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** Counters for refused requests and connections. */
  readonly events?: HealthServerEvents;
  readonly logger: Logger;
}

export interface HealthServerEvents {
  authFailed?(caller: Caller): void;
  hostRefused?(caller: Caller): void;
  connectionRefused?(address: string): void;
}

export interface HealthAddress {
  readonly host: string;
  readonly port: number;
  readonly url: string;
}

const MAX_BODY_BYTES = 64 * 1024;
/** The dashboard's Server-Sent Events (behind the token, like /status). */
export const DASHBOARD_EVENTS = '/ui/events';
const JSON_TYPE = 'application/json';

/**
 * The daemon's HTTP face over node:http (or https): `/healthz` (liveness, never behind the token),
 * `/readyz`, `/status`, Prometheus `/metrics`, `POST /control/…` and the dashboard (`/ui`). Trusts no one: every request but
 * /healthz must name this server in `Host` (DNS rebinding), /status and /control/… need the bearer
 * token (also on loopback), failed tokens back off per address (429), and connections are bounded in
 * number (in all and per address) and in time. Control requests must be JSON, which a web page cannot
 * send without a CORS preflight this server never grants.
 */
export class HealthServer {
  private server: Server | undefined;
  private hosts: ReadonlySet<string> = new Set();
  private readonly throttle: AuthThrottle;
  private readonly loopback: boolean;

  constructor(private readonly options: HealthServerOptions) {
    this.throttle = new AuthThrottle({ clock: options.clock });
    this.loopback = isLoopbackHost(options.host ?? '127.0.0.1');
  }

  /** Listens; a port in use or a bad host comes back as a ConfigError about health.host/port. */
  start(): Promise<Result<HealthAddress, ConfigError>> {
    const host = this.options.host ?? '127.0.0.1';
    const port = this.options.port ?? 9464;
    const listener = (req: IncomingMessage, res: ServerResponse): void => {
      this.handle(req, res).catch((error: unknown) => {
        this.options.logger.error({ error: error instanceof Error ? error.message : String(error), url: req.url }, 'health server handler failed');
        if (!res.headersSent) sendJson(res, 500, { status: 'error' });
        else res.destroy();
      });
    };
    const { tls } = this.options;
    const server: Server = tls === undefined ? createServer(listener) : createTlsServer({ cert: tls.cert, key: tls.key }, listener);
    guardConnections(server, { ...DEFAULT_CONNECTION_LIMITS, ...this.options.limits }, (address) => {
      this.options.events?.connectionRefused?.(address);
    });
    return new Promise((resolve) => {
      const onError = (error: NodeJS.ErrnoException): void => {
        resolve(err(new ConfigError(`cannot listen on ${host}:${port} (${error.code ?? error.message}): change health.host or health.port`, { path: 'health' })));
      };
      server.once('error', onError);
      server.listen(port, host, () => {
        server.off('error', onError);
        this.server = server;
        const bound = server.address() as AddressInfo;
        const urlHost = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
        this.hosts = allowedHosts(bound.address, bound.port, interfaceAddresses(), this.options.allowedHosts ?? []);
        resolve(ok({ host: bound.address, port: bound.port, url: `${tls === undefined ? 'http' : 'https'}://${urlHost}:${bound.port}` }));
      });
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const { control, logger } = this.options;
    if (path === '/healthz') {
      if (!allowGet(req, res)) return;
      return sendReport(res, await this.ask(this.options.check));
    }
    const caller: Caller = { address: req.socket.remoteAddress ?? 'unknown', port: req.socket.remotePort ?? 0 };
    if (!hostAllowed(req.headers.host, this.hosts)) {
      logger.warn({ caller, host: req.headers.host ?? null, path }, 'request refused: its Host is not this server');
      this.options.events?.hostRefused?.(caller);
      return sendJson(res, 421, { error: `misdirected request: Host ${req.headers.host ?? '(none)'} is not this server` });
    }
    const { dashboard } = this.options;
    if (dashboard !== undefined && (path === '/ui' || path.startsWith('/ui/')) && path !== DASHBOARD_EVENTS) {
      if (!allowGet(req, res)) return;
      const asset = dashboard.asset(path);
      if (asset === undefined) return sendJson(res, 404, { error: 'not found' });
      res.writeHead(200, { ...asset.headers, 'content-type': asset.type, 'content-length': asset.body.length });
      res.end(req.method === 'HEAD' ? undefined : asset.body);
      return;
    }
    const open = this.loopback && (path === '/readyz' || path === '/metrics');
    if (!open && !this.authenticate(req, res, caller, path)) return;
    if (dashboard !== undefined && path === DASHBOARD_EVENTS) {
      if (req.method !== 'GET') {
        res.setHeader('allow', 'GET');
        return sendJson(res, 405, { error: 'method not allowed' });
      }
      if (!dashboard.stream(res)) sendJson(res, 503, { error: 'too many dashboard streams are open: close one' });
      return;
    }
    if (control !== undefined && path.startsWith('/control/')) {
      if (req.method !== 'POST') {
        res.setHeader('allow', 'POST');
        return sendJson(res, 405, { error: 'method not allowed' });
      }
      const body = await readJsonBody(req);
      if (!body.ok) return sendJson(res, body.error.status, { error: body.error.message });
      const reply = await control({ path: path.slice('/control'.length), body: body.value, caller });
      logger.info({ caller, authenticated: true, path, status: reply.status }, 'control call');
      return sendJson(res, reply.status, reply.body);
    }
    const { ready, status, registry } = this.options;
    if (path === '/readyz' && ready !== undefined) {
      if (!allowGet(req, res)) return;
      return sendReport(res, await this.ask(ready));
    }
    if (path === '/status' && status !== undefined) {
      if (!allowGet(req, res)) return;
      return sendJson(res, 200, await status());
    }
    if (path === '/metrics') {
      if (!allowGet(req, res)) return;
      return send(res, 200, registry.contentType, await registry.metrics());
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  /** The bearer token, unless the address is backing off from failures (429); a failure is logged and answered 401. */
  private authenticate(req: IncomingMessage, res: ServerResponse, caller: Caller, path: string): boolean {
    const wait = this.throttle.waitMs(caller.address);
    if (wait > 0) {
      res.setHeader('retry-after', String(Math.ceil(wait / 1000)));
      sendJson(res, 429, { error: `too many failed authentications from ${caller.address}: retry in ${Math.ceil(wait / 1000)} s` });
      return false;
    }
    if (bearerMatches(req.headers.authorization, this.options.token)) {
      this.throttle.succeeded(caller.address);
      return true;
    }
    const failures = this.throttle.failed(caller.address);
    this.options.logger.warn({ caller, path, failures, sentToken: req.headers.authorization !== undefined }, 'authentication failed');
    this.options.events?.authFailed?.(caller);
    res.setHeader('www-authenticate', 'Bearer realm="stratd"');
    sendJson(res, 401, { error: 'unauthorized: send Authorization: Bearer <token>' });
    return false;
  }

  private async ask(check: (() => HealthReport | Promise<HealthReport>) | undefined): Promise<HealthReport> {
    if (check === undefined) return { healthy: true };
    try {
      return await check();
    } catch (error: unknown) {
      return { healthy: false, reasons: [`health check failed: ${error instanceof Error ? error.message : String(error)}`] };
    }
  }
}

/** Every address of this machine's interfaces (what a wildcard bind answers on). */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

function allowGet(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  res.setHeader('allow', 'GET, HEAD');
  sendJson(res, 405, { error: 'method not allowed' });
  return false;
}

async function readJsonBody(req: IncomingMessage): Promise<Result<unknown, { status: number; message: string }>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== JSON_TYPE) return err({ status: 415, message: `control requests are ${JSON_TYPE}` });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return err({ status: 413, message: `body over ${MAX_BODY_BYTES} bytes` });
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return ok({});
  try {
    return ok(JSON.parse(text) as unknown);
  } catch {
    return err({ status: 400, message: 'the body is not JSON' });
  }
}

function sendReport(res: ServerResponse, report: HealthReport): void {
  const body = report.healthy ? { status: 'ok' } : { status: 'unhealthy', reasons: report.reasons ?? [] };
  sendJson(res, report.healthy ? 200 : 503, body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, JSON_TYPE, JSON.stringify(plainJson(body)));
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
