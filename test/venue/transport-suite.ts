import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import type { Server as TcpServer, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { HttpTransportError } from '../../src/venue/http-port.js';
import type { HttpReply } from '../../src/venue/http-port.js';
import type { NodeHttp, NodeHttpOptions } from '../../src/venue/node-http.js';

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

async function failure(reply: Promise<HttpReply>): Promise<HttpTransportError> {
  try {
    await reply;
  } catch (error: unknown) {
    if (error instanceof HttpTransportError) return error;
    throw error;
  }
  throw new Error('the request succeeded');
}

/**
 * A TCP server that answers each request (read up to its blank line; these tests send no bodies)
 * with the exact bytes `answer` gives, written in the pieces it gives them, so the reply parser
 * meets framings node:http's server would not produce. Counts connections, keeps the requests.
 */
class RawServer {
  connections = 0;
  readonly requests: string[] = [];
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: TcpServer) {}

  static async start(answer: (request: string, index: number) => readonly string[]): Promise<RawServer> {
    const holder: { raw?: RawServer } = {};
    const server = createTcpServer((socket) => {
      const raw = holder.raw as RawServer;
      raw.connections++;
      raw.sockets.add(socket);
      socket.on('close', () => raw.sockets.delete(socket));
      let seen = '';
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString('latin1');
        for (let end = seen.indexOf('\r\n\r\n'); end >= 0; end = seen.indexOf('\r\n\r\n')) {
          const request = seen.slice(0, end);
          seen = seen.slice(end + 4);
          raw.requests.push(request);
          const pieces = answer(request, raw.requests.length - 1);
          const write = (i: number): void => {
            const piece = pieces[i];
            if (piece === undefined || socket.destroyed) return;
            socket.write(piece, () => setImmediate(() => write(i + 1)));
          };
          write(0);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.raw = new RawServer(server);
    return holder.raw;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Connections open now. */
  get open(): number {
    return this.sockets.size;
  }

  /** Closes every open connection from the server's side. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.end();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** How a transport may differ where HTTP lets it. */
export interface TransportTraits {
  /** Skips a `100 Continue` nobody asked for (undici refuses it as a bad response: this client sends no `Expect`). */
  readonly skipsUnaskedContinue: boolean;
  /**
   * Extra connections sequential requests may open: undici waits one event-loop turn before it reuses
   * a kept-alive connection, so a request sent the moment the last reply arrived takes a second one.
   */
  readonly reuseSlack: number;
  /**
   * Retires a connection whose reply was followed by bytes nobody asked for. node:http's agent keeps
   * such a connection (its parser reads the stray bytes as the start of the next reply).
   */
  readonly retiresOnStrayBytes: boolean;
}

/**
 * The behaviour every REST transport (HttpPort with NodeHttpOptions) must show, against loopback
 * servers: run by each transport's own test file with its factory (socket-http, undici-http).
 */
export function describeTransport(name: string, create: (options?: NodeHttpOptions) => NodeHttp, traits: TransportTraits): void {
  let server: LoopbackServer | undefined;
  let http: NodeHttp;

  beforeEach(() => {
    http = create({ maxBodyBytes: 1024 * 1024 });
  });
  afterEach(async () => {
    http.close();
    await server?.close();
    server = undefined;
  });


  describe(`the ${name} transport over loopback`, () => {
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
      expect(server.connections).toBeLessThanOrEqual(1 + traits.reuseSlack);
      await Promise.all(Array.from({ length: 4 }, () => http.send({ method: 'GET', url: `${server?.url ?? ''}/x`, headers: {}, timeoutMs: 2000 })));
      expect(server.connections).toBeLessThanOrEqual(4 + traits.reuseSlack);
      for (let i = 0; i < 10; i++) await http.send({ method: 'GET', url: `${server.url}/x`, headers: {}, timeoutMs: 2000 });
      expect(server.connections).toBeLessThanOrEqual(4 + traits.reuseSlack);
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
      expect(server.connections).toBeGreaterThanOrEqual(2);
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


  describe(`the ${name} transport reads HTTP/1.1 framings byte by byte`, () => {
    let raw: RawServer | undefined;
    afterEach(async () => {
      await raw?.close();
      raw = undefined;
    });
    const get = (url: string): Promise<HttpReply> => http.send({ method: 'GET', url: `${url}/x?a=1`, headers: { accept: 'application/json' }, timeoutMs: 3000 });
    const bytes = (text: string): string[] => [...text];

    test('a chunked body with extensions and trailers, split into single bytes, and then the connection reused', async () => {
      const reply = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n4;ext=1\r\n{"a"\r\nA\r\n:"é12345"\r\n1\r\n}\r\n0\r\nX-Trailer: t\r\n\r\n';
      raw = await RawServer.start(() => bytes(reply));
      const first = await get(raw.url);
      expect(first).toMatchObject({ status: 200, body: '{"a":"é12345"}', headers: { 'content-type': 'application/json' } });
      expect(JSON.parse(first.body)).toEqual({ a: 'é12345' });
      await get(raw.url);
      expect(raw.connections).toBeLessThanOrEqual(1 + traits.reuseSlack);
      const head = (raw.requests[0] ?? '').split('\r\n');
      expect(head[0]).toBe('GET /x?a=1 HTTP/1.1');
      expect(head.slice(1).map((line) => line.toLowerCase())).toEqual(expect.arrayContaining([expect.stringMatching(/^host: 127\.0\.0\.1:\d+$/), 'accept: application/json', 'user-agent: stratd', 'accept-encoding: gzip, deflate, br']));
    });

    test('a Content-Length reply split mid-header is read whole (after a 100 Continue, where the transport skips one)', async () => {
      raw = await RawServer.start(() => [traits.skipsUnaskedContinue ? 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Cre' : 'HTTP/1.1 201 Cre', 'ated\r\nContent-Le', 'ngth: 2\r\n\r\n{', '}']);
      expect(await get(raw.url)).toMatchObject({ status: 201, body: '{}' });
    });

    test('Connection: close and a body framed by the close end the connection; the next request opens another', async () => {
      raw = await RawServer.start((_request, index) => (index === 0 ? ['HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n[]'] : ['HTTP/1.0 200 OK\r\n\r\n{"closed":true}']));
      expect((await get(raw.url)).body).toBe('[]');
      // The second reply has no length: its end is the connection's end.
      const pending = get(raw.url);
      await waitFor(() => raw?.requests.length === 2);
      raw.dropConnections();
      expect((await pending).body).toBe('{"closed":true}');
      expect(raw.connections).toBe(2);
    });

    test('an idle kept-alive connection the server closed is not reused: the next request opens a new one', async () => {
      raw = await RawServer.start(() => ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}']);
      await get(raw.url);
      raw.dropConnections();
      await waitFor(() => raw?.open === 0);
      expect((await get(raw.url)).body).toBe('{}');
      expect(raw.connections).toBe(2);
    });

    (traits.retiresOnStrayBytes ? test : test.skip)('bytes beyond the reply (nothing asked for them) retire the connection', async () => {
      raw = await RawServer.start(() => ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}HTTP/1.1 200 OK\r\n']);
      expect((await get(raw.url)).body).toBe('{}');
      expect((await get(raw.url)).body).toBe('{}');
      expect(raw.connections).toBe(2);
    });

    test('a malformed status line, chunk size or Content-Length is a network error, not a reply', async () => {
      for (const reply of ['SPDY/3 200 OK\r\n\r\n', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n']) {
        raw = await RawServer.start(() => [reply]);
        const error = await failure(get(raw.url));
        expect(error.timedOut).toBe(false);
        await raw.close();
        raw = undefined;
      }
    });

    test('a header value with a line break is refused before anything is sent', async () => {
      raw = await RawServer.start(() => ['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n']);
      const error = await failure(http.send({ method: 'GET', url: `${raw.url}/x`, headers: { 'x-bb-apikey': 'k\r\nx-evil: 1' }, timeoutMs: 1000 }));
      expect(error.message).toContain('invalid request header');
      expect(raw.requests).toEqual([]);
    });

    test('at most maxSocketsPerOrigin connections: further requests wait for a free one', async () => {
      const limited = create({ maxSocketsPerOrigin: 2 });
      try {
        raw = await RawServer.start(() => ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}']);
        const url = raw.url;
        const replies = await Promise.all(Array.from({ length: 10 }, () => limited.send({ method: 'GET', url: `${url}/x`, headers: {}, timeoutMs: 3000 })));
        expect(replies.map((r) => r.body)).toEqual(Array.from({ length: 10 }, () => '{}'));
        expect(raw.connections).toBe(2);
      } finally {
        limited.close();
      }
    });
  });


  describe(`idle connections of the ${name} transport`, () => {
    test('an idle connection closes after idleSocketMs; the next request opens another', async () => {
      const short = create({ idleSocketMs: 100 });
      const raw = await RawServer.start(() => ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}']);
      try {
        for (let i = 0; i < 15; i++) await short.send({ method: 'GET', url: `${raw.url}/x`, headers: {}, timeoutMs: 2000 });
        const used = raw.connections;
        expect(used).toBeLessThanOrEqual(1 + traits.reuseSlack);
        await waitFor(() => raw.open === 0);
        expect((await short.send({ method: 'GET', url: `${raw.url}/x`, headers: {}, timeoutMs: 2000 })).body).toBe('{}');
        expect(raw.connections).toBe(used + 1);
      } finally {
        short.close();
        await raw.close();
      }
    });
  });
}
