import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { Logger } from '../core/logger.js';
import { ConfigError } from '../settings/config-error.js';

export interface HealthReport {
  readonly healthy: boolean;
  /** Why not healthy (shown in the 503 body). */
  readonly reasons?: readonly string[];
}

export interface HealthServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 9464; 0 picks a free port. */
  readonly port?: number;
  readonly registry: Registry;
  /** Asked on every /healthz; absent means healthy while the process answers. */
  readonly check?: () => HealthReport | Promise<HealthReport>;
  readonly logger: Logger;
}

export interface HealthAddress {
  readonly host: string;
  readonly port: number;
  readonly url: string;
}

/** `/healthz` and Prometheus `/metrics` over node:http; anything else is 404. */
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
        if (!res.headersSent) send(res, 500, 'application/json', JSON.stringify({ status: 'error' }));
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
    if (path !== '/healthz' && path !== '/metrics') return send(res, 404, 'application/json', JSON.stringify({ error: 'not found' }));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'application/json', JSON.stringify({ error: 'method not allowed' }));
    }
    if (path === '/metrics') {
      const { registry } = this.options;
      return send(res, 200, registry.contentType, await registry.metrics());
    }
    const report = await this.report();
    const body = report.healthy ? { status: 'ok' } : { status: 'unhealthy', reasons: report.reasons ?? [] };
    return send(res, report.healthy ? 200 : 503, 'application/json', JSON.stringify(body));
  }

  private async report(): Promise<HealthReport> {
    const check = this.options.check;
    if (check === undefined) return { healthy: true };
    try {
      return await check();
    } catch (error: unknown) {
      return { healthy: false, reasons: [`health check failed: ${error instanceof Error ? error.message : String(error)}`] };
    }
  }
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
