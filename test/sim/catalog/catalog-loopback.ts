import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CATALOG_PATH_PREFIX } from '../../../src/sim/catalog/index.js';
import type { CatalogRouter } from '../../../src/sim/catalog/index.js';

/**
 * A real HTTP server on 127.0.0.1 that mounts a catalog router under `/catalog`, the way the
 * simulator's server will: the prefix is stripped, anything the router does not serve is a plain 404.
 */
export class CatalogLoopback {
  private constructor(private readonly server: Server) {}

  static async start(router: CatalogRouter): Promise<CatalogLoopback> {
    const server = createServer((req, res) => {
      void serve(router, req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new CatalogLoopback(server);
  }

  /** The catalog base URL: `http://127.0.0.1:<port>/catalog`. */
  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}${CATALOG_PATH_PREFIX}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function serve(router: CatalogRouter, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const fullPath = q < 0 ? url : url.slice(0, q);
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const reply = fullPath.startsWith(`${CATALOG_PATH_PREFIX}/`)
    ? router.handle({
        method: req.method ?? 'GET',
        path: fullPath.slice(CATALOG_PATH_PREFIX.length),
        query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      })
    : undefined;
  if (reply === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end(`no route ${fullPath}`);
    return;
  }
  res.writeHead(reply.status, reply.headers ?? {});
  res.end(reply.body);
}
