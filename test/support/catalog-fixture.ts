import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for the catalog service: real HTTP on 127.0.0.1. It refuses any request
 * without `Authorization: Bearer <token>` (401 failure envelope), records every request as it came
 * over the wire, and answers from replies queued per route ("PATCH /v1/products/p1").
 */
export interface CatalogReply {
  readonly status?: number;
  /** Sent as JSON unless it is a string (sent raw). */
  readonly body: unknown;
  readonly delayMs?: number;
}

export interface CatalogRecorded {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly rawQuery: string;
  readonly rawBody: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

export class CatalogFixture {
  readonly requests: CatalogRecorded[] = [];
  private readonly replies = new Map<string, CatalogReply[]>();

  private constructor(
    private readonly server: Server,
    readonly token: string,
  ) {}

  static async start(token = 'catalog-token'): Promise<CatalogFixture> {
    const server = createServer();
    const fixture = new CatalogFixture(server, token);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      void fixture.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fixture;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  reply(route: string, reply: CatalogReply): this {
    const list = this.replies.get(route) ?? [];
    list.push(reply);
    this.replies.set(route, list);
    return this;
  }

  last(): CatalogRecorded {
    const request = this.requests[this.requests.length - 1];
    if (request === undefined) throw new Error('no request was received');
    return request;
  }

  /** Forgets recorded requests and unused replies. */
  clear(): void {
    this.requests.length = 0;
    this.replies.clear();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const method = req.method ?? 'GET';
    this.requests.push({ method, path, rawQuery, query: Object.fromEntries(new URLSearchParams(rawQuery)), rawBody: Buffer.concat(chunks).toString('utf8'), headers });
    if (headers['authorization'] !== `Bearer ${this.token}`) {
      send(res, 401, { success: false, error: { code: 'unauthorized', message: 'missing or invalid bearer token' } });
      return;
    }
    const reply = this.replies.get(`${method} ${path}`)?.shift();
    if (reply === undefined) {
      send(res, 404, `<html>no fixture for ${method} ${path}</html>`, 'text/html');
      return;
    }
    if (reply.delayMs !== undefined) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    send(res, reply.status ?? 200, reply.body);
  }
}

function send(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** `{success: true, data, message?}` */
export function single(data: unknown, message?: string): Record<string, unknown> {
  return message === undefined ? { success: true, data } : { success: true, data, message };
}

/** `{success: true, data: [...], pagination}` */
export function list(data: readonly unknown[], pagination: { page: number; limit: number; total: number; pages: number }): Record<string, unknown> {
  return { success: true, data, pagination };
}

/** `{success: false, error: {code, message, field?}}` */
export function failure(code: string, message: string, field?: string): Record<string, unknown> {
  return { success: false, error: field === undefined ? { code, message } : { code, message, field } };
}
