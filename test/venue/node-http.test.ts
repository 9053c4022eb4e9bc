import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { HttpTransportError } from '../../src/venue/http-port.js';
import type { HttpReply } from '../../src/venue/http-port.js';
import type { NodeHttp } from '../../src/venue/node-http.js';
import { createNodeHttp } from '../../src/venue/node-http.js';
import { freePort } from '../support/free-port.js';

/** A loopback server answering with `handler`; counts the TCP connections it accepted. */
class LoopbackServer {
  connections = 0;
  private constructor(private readonly server: Server) {
    server.on('connection', () => this.connections++);
  }

  static async start(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LoopbackServer> {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new LoopbackServer(server);
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let server: LoopbackServer | undefined;
let http: NodeHttp;

beforeEach(() => {
  http = createNodeHttp({ maxBodyBytes: 1024 * 1024 });
});
afterEach(async () => {
  http.close();
  await server?.close();
  server = undefined;
});

async function failure(reply: Promise<HttpReply>): Promise<HttpTransportError> {
  try {
    await reply;
  } catch (error: unknown) {
    if (error instanceof HttpTransportError) return error;
    throw error;
  }
  throw new Error('the request succeeded');
}

describe('the node:http transport over loopback', () => {
  test('sends method, headers and body as given and answers status, lower-cased headers and body', async () => {
    const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];
    server = await LoopbackServer.start((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(201, { 'Content-Type': 'application/json', TraceId: 't-1' });
        res.end('{"ok":true}');
      });
    });
    const reply = await http.send({ method: 'POST', url: `${server.url}/api/v1/futures/order?x=1`, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-bb-apikey': 'k' }, body: 'a=1&b=2', timeoutMs: 2000 });
    expect(reply).toMatchObject({ status: 201, body: '{"ok":true}', headers: { traceid: 't-1', 'content-type': 'application/json' } });
    expect(seen).toEqual([expect.objectContaining({ method: 'POST', url: '/api/v1/futures/order?x=1', body: 'a=1&b=2' })]);
    expect(seen[0]?.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded', 'x-bb-apikey': 'k', 'content-length': '7' });
  });

  test('keeps the connection alive: sequential requests share one socket, concurrent ones open one each', async () => {
    server = await LoopbackServer.start((_req, res) => res.end('{}'));
    for (let i = 0; i < 20; i++) await http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 2000 });
    expect(server.connections).toBe(1);
    await Promise.all(Array.from({ length: 4 }, () => http.send({ method: 'GET', url: `${server?.url ?? ''}/x`, headers: {}, timeoutMs: 2000 })));
    expect(server.connections).toBeLessThanOrEqual(4);
    for (let i = 0; i < 10; i++) await http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 2000 });
    expect(server.connections).toBeLessThanOrEqual(4);
  });

  test('a reply slower than the timeout fails as timed out, and the connection is not reused', async () => {
    let calls = 0;
    server = await LoopbackServer.start((_req, res) => {
      if (calls++ === 0) return; // never answered
      res.end('{"late":false}');
    });
    const error = await failure(http.send({ method: 'GET', url: `${server.url}/slow`, headers: {}, timeoutMs: 150 }));
    expect(error.timedOut).toBe(true);
    const next = await http.send({ method: 'GET', url: `${server.url}/fast`, headers: {}, timeoutMs: 2000 });
    expect(next.body).toBe('{"late":false}');
    expect(server.connections).toBe(2);
  });

  test('the status line without the whole body within the timeout: timed out', async () => {
    server = await LoopbackServer.start((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":');
    });
    const error = await failure(http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 200 }));
    expect(error.timedOut).toBe(true);
  });

  test('a connection reset in the middle of the body is a network error, not a reply', async () => {
    server = await LoopbackServer.start((_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"rows":[1,2,3', () => res.socket?.destroy());
    });
    const error = await failure(http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 2000 }));
    expect(error.timedOut).toBe(false);
    expect(error.message).toMatch(/ECONNRESET|aborted|cut short|closed/);
  });

  test('a connection closed before any reply is a network error', async () => {
    server = await LoopbackServer.start((req) => req.socket.destroy());
    const error = await failure(http.send({ method: 'POST', url: `${server.url}/x`, headers: {}, body: 'a=1', timeoutMs: 2000 }));
    expect(error.timedOut).toBe(false);
  });

  test('5xx, 429 with Retry-After and non-JSON bodies are replies, passed on as they came', async () => {
    const answers: Array<[number, Record<string, string>, string]> = [
      [503, { 'content-type': 'text/html' }, '<html>upstream</html>'],
      [429, { 'retry-after': '7', 'content-type': 'application/json' }, '{"code":-1003,"msg":"Too many requests"}'],
    ];
    server = await LoopbackServer.start((_req, res) => {
      const [status, headers, body] = answers.shift() ?? [200, {}, ''];
      res.writeHead(status, headers);
      res.end(body);
    });
    const down = await http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 2000 });
    expect(down).toMatchObject({ status: 503, body: '<html>upstream</html>' });
    const limited = await http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 2000 });
    expect(limited).toMatchObject({ status: 429, headers: { 'retry-after': '7' } });
  });

  test('a body over the cap fails the request, whether its length is declared or streamed', async () => {
    const big = 'x'.repeat(1024 * 1024 + 1);
    let declared = true;
    server = await LoopbackServer.start((_req, res) => {
      if (declared) res.writeHead(200, { 'content-length': String(big.length) });
      else res.writeHead(200, { 'transfer-encoding': 'chunked' });
      res.end(big);
    });
    expect((await failure(http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 5000 }))).message).toContain('larger than');
    declared = false;
    expect((await failure(http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 5000 }))).message).toContain('larger than');
  });

  test('a gzip reply is decompressed; one that inflates beyond the cap fails', async () => {
    let body = gzipSync(Buffer.from('{"price":"86158.3"}'));
    const accepted: Array<string | undefined> = [];
    server = await LoopbackServer.start((req, res) => {
      accepted.push(req.headers['accept-encoding']);
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(body.length) });
      res.end(body);
    });
    expect((await http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 2000 })).body).toBe('{"price":"86158.3"}');
    expect(accepted[0]).toContain('gzip');
    body = gzipSync(Buffer.alloc(4 * 1024 * 1024, 32));
    expect(body.length).toBeLessThan(1024 * 1024);
    expect((await failure(http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 5000 }))).message).toContain('larger than');
  });

  test('an aborted request fails at once as a network error', async () => {
    server = await LoopbackServer.start(() => undefined);
    const controller = new AbortController();
    const pending = http.send({ method: 'POST', url: `${server.url}/x`, headers: {}, body: 'a=1', timeoutMs: 10_000, signal: controller.signal });
    controller.abort();
    const error = await failure(pending);
    expect(error).toMatchObject({ timedOut: false, message: 'aborted' });
  });

  test('a refused connection names the error, never the query (which carries the signature)', async () => {
    const port = await freePort();
    const error = await failure(http.send({ method: 'GET', url: `http://127.0.0.1:${port}/api/v1/futures/balance?timestamp=1&signature=abcdef0123`, headers: { 'x-bb-apikey': 'secret-key-value' }, timeoutMs: 2000 }));
    expect(error.timedOut).toBe(false);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).not.toMatch(/signature|abcdef0123|secret-key-value/);
  });

  test('reports the write of the request, then the arrival of the reply', async () => {
    const steps: string[] = [];
    server = await LoopbackServer.start((req, res) => {
      req.resume();
      req.on('end', () => {
        steps.push('server');
        res.end('{}');
      });
    });
    await http.send({ method: 'POST', url: `${server.url}/x`, headers: {}, body: 'a=1', timeoutMs: 2000, onWritten: () => steps.push('written'), onResponse: () => steps.push('response') });
    expect(steps.filter((s) => s !== 'server')).toEqual(['written', 'response']);
    expect(steps.indexOf('server')).toBeLessThan(steps.indexOf('response'));
  });
});
