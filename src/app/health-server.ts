import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { Logger } from '../core/logger.js';
import { ConfigError } from '../settings/config-error.js';
import { bearerMatches } from './control-auth.js';
import { plainJson } from './follower-output.js';

export interface HealthReport {
  readonly healthy: boolean;
  /** Why not healthy (shown in the 503 body). */
  readonly reasons?: readonly string[];
}

/** A POST under /control/, its JSON body parsed (`{}` when empty). */
export interface ControlRequest {
  readonly path: string;
  readonly body: unknown;
}

export interface ControlReply {
  readonly status: number;
  readonly body: unknown;
}

export type ControlHandler = (request: ControlRequest) => Promise<ControlReply>;

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
  /** Bearer token every endpoint except /healthz then requires. */
  readonly token?: string;
  readonly logger: Logger;
}

export interface HealthAddress {
  readonly host: string;
  readonly port: number;
  readonly url: string;
}

const MAX_BODY_BYTES = 64 * 1024;
const JSON_TYPE = 'application/json';

/**
 * The daemon's HTTP face over node:http: `/healthz` (liveness, never behind the token), `/readyz`,
 * `/status`, Prometheus `/metrics` and `POST /control/…`. Control requests must be JSON, which a web
 * page cannot send to loopback without a CORS preflight this server never grants.
 */
export class HealthServer {
  private server: Server | undefined;

  constructor(private readonly options: HealthServerOptions) {}

  /** Listens; a port in use or a bad host comes back as a ConfigError about health.host/port. */
  start(): Promise<Result<HealthAddress, ConfigError>> {
    const host = this.options.host ?? '127.0.0.1';
    const port = this.options.port ?? 9464;
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.options.logger.error({ error: error instanceof Error ? error.message : String(error), url: req.url }, 'health server handler failed');
        if (!res.headersSent) sendJson(res, 500, { status: 'error' });
        else res.destroy();
      });
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
        resolve(ok({ host: bound.address, port: bound.port, url: `http://${urlHost}:${bound.port}` }));
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
    const { token, control } = this.options;
    if (path === '/healthz') {
      if (!allowGet(req, res)) return;
      return sendReport(res, await this.ask(this.options.check));
    }
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      res.setHeader('www-authenticate', 'Bearer realm="stratd"');
      return sendJson(res, 401, { error: 'unauthorized: send Authorization: Bearer <token>' });
    }
    if (control !== undefined && path.startsWith('/control/')) {
      if (req.method !== 'POST') {
        res.setHeader('allow', 'POST');
        return sendJson(res, 405, { error: 'method not allowed' });
      }
      const body = await readJsonBody(req);
      if (!body.ok) return sendJson(res, body.error.status, { error: body.error.message });
      const reply = await control({ path: path.slice('/control'.length), body: body.value });
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

  private async ask(check: (() => HealthReport | Promise<HealthReport>) | undefined): Promise<HealthReport> {
    if (check === undefined) return { healthy: true };
    try {
      return await check();
    } catch (error: unknown) {
      return { healthy: false, reasons: [`health check failed: ${error instanceof Error ? error.message : String(error)}`] };
    }
  }
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
