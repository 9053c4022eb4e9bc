import { Agent, createServer, request, STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';

/**
 * Replies recorded from a real server, then served as fixed bytes by a server in its own process: a
 * client benchmarked against it pays its own costs only (the server does no work worth measuring, and
 * does it in another process, so the client process's CPU time is the client's). Record by pointing clients at a `RecordingProxy` in front of the simulator,
 * then serve what it kept with `CannedReplyServer.start`.
 */

/** Hop-by-hop and framing headers: the canned reply sets its own Content-Length and stays kept-alive. */
const DROPPED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

/** Forwards every request to `target` and keeps the first 2xx reply of each route ("METHOD /path") as bytes. */
export class RecordingProxy {
  private readonly recorded = new Map<string, Buffer>();
  private readonly agent = new Agent({ keepAlive: true });

  private constructor(
    private readonly server: Server,
    private readonly target: URL,
  ) {}

  static async start(targetBaseUrl: string): Promise<RecordingProxy> {
    const holder: { proxy?: RecordingProxy } = {};
    const server = createServer((req, res) => holder.proxy?.forward(req, res));
    const proxy = new RecordingProxy(server, new URL(targetBaseUrl));
    holder.proxy = proxy;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The recorded routes and their whole responses. */
  replies(): ReadonlyMap<string, Buffer> {
    return this.recorded;
  }

  async stop(): Promise<void> {
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const headers = { ...req.headers, host: this.target.host };
    const upstream = request({ agent: this.agent, hostname: this.target.hostname, port: this.target.port, method: req.method, path: req.url, headers }, (reply) => {
      const chunks: Buffer[] = [];
      reply.on('data', (chunk: Buffer) => chunks.push(chunk));
      reply.on('end', () => {
        const body = Buffer.concat(chunks);
        const status = reply.statusCode ?? 502;
        const kept: Array<readonly [string, string]> = [];
        for (let i = 0; i + 1 < reply.rawHeaders.length; i += 2) {
          const name = reply.rawHeaders[i] ?? '';
          if (!DROPPED.has(name.toLowerCase())) kept.push([name, reply.rawHeaders[i + 1] ?? '']);
        }
        const route = `${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0] ?? '/'}`;
        if (status >= 200 && status < 300 && !this.recorded.has(route)) this.recorded.set(route, responseBytes(status, kept, body));
        res.writeHead(status, Object.fromEntries(kept));
        res.end(body);
      });
    });
    upstream.on('error', (error) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(upstream);
  }
}

/** One whole HTTP/1.1 response: status line, the given headers, Content-Length, the body. */
function responseBytes(status: number, headers: ReadonlyArray<readonly [string, string]>, body: Buffer): Buffer {
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, ...headers.map(([name, value]) => `${name}: ${value}`), `Content-Length: ${body.length}`, '', ''].join('\r\n');
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** Serves recorded replies from a child process (canned-reply-worker.ts) on a loopback port. */
export class CannedReplyServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(replies: ReadonlyMap<string, Buffer>): Promise<CannedReplyServer> {
    const child = fork(new URL('./canned-reply-worker.js', import.meta.url), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message: { port: number }) => resolve(message.port));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the canned-reply server exited (${code ?? 'signal'})`)));
      child.send(Object.fromEntries(replies));
    });
    return new CannedReplyServer(child, `http://127.0.0.1:${port}`);
  }

  /** The child's process id (the tick bench lowers its CPU priority as it does the simulator's). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill();
    await exited;
  }
}
