import { connect as netConnect } from 'node:net';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Deadline } from './deadline-list.js';
import { DeadlineList } from './deadline-list.js';
import type { HttpReply, HttpRequest } from './http-port.js';
import { checkRequestHeader, HttpTransportError, isSafeHeaderText } from './http-port.js';
import { Http1ReplyReader } from './http1-reply.js';
import type { ReplyHead, ReplyProgress } from './http1-reply.js';
import type { NodeHttp, NodeHttpOptions } from './node-http.js';
import { DEFAULT_MAX_BODY_BYTES } from './node-http.js';
import { decodeBody } from './reply-body.js';

/**
 * HttpPort speaking HTTP/1.1 itself over kept-alive TCP (or TLS) sockets: the REST hot paths'
 * default transport. node:http's request machinery (agent, streams, header objects, its parser)
 * costs several times the socket work of a small request on loopback (README "Client throughput");
 * this writes each request as one string and reads the reply with a small incremental parser
 * (http1-reply.ts): Content-Length, chunked and close-framed bodies, 1xx skipped, gzip/deflate/br
 * decompressed. One request per connection at a time (no pipelining), no retries, no redirects;
 * the same options and timeouts as the node:http adapter.
 */
export function createSocketHttp(options: NodeHttpOptions = {}): NodeHttp {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const settings: PoolSettings = {
    maxBody,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: options.responseTimeoutMs,
    maxSockets: options.maxSocketsPerOrigin ?? DEFAULT_MAX_SOCKETS,
    idleMs: options.idleSocketMs ?? DEFAULT_IDLE_SOCKET_MS,
    deadlines: new DeadlineList(options.scheduler),
    socketsHold: options.scheduler !== undefined,
    readBuffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
  };
  const origins = new Map<string, OriginPool>();
  const send = (request: HttpRequest): Promise<HttpReply> => {
    const { url } = request;
    const scheme = url.indexOf('://');
    if (scheme < 0) return Promise.reject(new HttpTransportError('the URL has no scheme (http:// or https://)', false));
    const slash = url.indexOf('/', scheme + 3);
    const base = slash < 0 ? url : url.slice(0, slash);
    let pool = origins.get(base);
    if (pool === undefined) {
      try {
        pool = new OriginPool(base, settings);
      } catch (error: unknown) {
        return Promise.reject(error instanceof HttpTransportError ? error : new HttpTransportError(`invalid URL: ${error instanceof Error ? error.message : String(error)}`, false));
      }
      origins.set(base, pool);
    }
    return pool.send(request, slash < 0 ? '/' : url.slice(slash));
  };
  return {
    send,
    close(): void {
      for (const pool of origins.values()) pool.close();
      origins.clear();
      settings.deadlines.clear();
    },
  };
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_SOCKETS = 64;
const DEFAULT_IDLE_SOCKET_MS = 15_000;
/** Node's own read size: a plain TCP socket's reads land in one buffer of this size, reused. */
const READ_BUFFER_BYTES = 64 * 1024;

/** Header lines sent unless the request names them (lower-case names). */
const DEFAULT_HEADERS: Readonly<Record<string, string>> = { 'user-agent': 'stratd', 'accept-encoding': 'gzip, deflate, br' };
/** Framing headers the transport writes itself. */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

interface PoolSettings {
  readonly maxBody: number;
  readonly connectTimeoutMs: number;
  readonly responseTimeoutMs: number | undefined;
  readonly maxSockets: number;
  readonly idleMs: number;
  /** Every timer of the transport (request deadlines, idle connections), on the scheduler given. */
  readonly deadlines: DeadlineList;
  /**
   * Whether a connection holds the process up while its request is in flight. On real timers it never
   * does: every request has its whole-request deadline on `deadlines`, whose timer holds the process
   * while a deadline is live, so a socket `ref` per request and `unref` per reply (two native calls
   * on the order path, cold once per poll) are not needed. A scheduler's timer holds nothing: then the
   * connection does.
   */
  readonly socketsHold: boolean;
  /**
   * Where every plain TCP connection of the transport reads (Node's `onread`): no buffer allocated per
   * read. Read callbacks never interleave; a reply's bytes are read or copied before the next read.
   */
  readonly readBuffer: Buffer;
}

/** A socket's bytes as they arrive; `shared`: a view of the transport's read buffer, valid until the call returns. */
type OnChunk = (chunk: Buffer, shared: boolean) => void;

type Phase = 'connect' | 'response' | 'total';

/** A request's header block (without Host, framing and the final CRLF), built once per headers object. */
const headerBlocks = new WeakMap<object, string>();
function headerBlock(headers: Readonly<Record<string, string>>): string {
  let block = headerBlocks.get(headers);
  if (block !== undefined) return block;
  const lines: string[] = [];
  const named = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (OWN_HEADERS.has(lower)) continue;
    checkRequestHeader(name, value);
    named.add(lower);
    lines.push(`${name}: ${value}\r\n`);
  }
  for (const [name, value] of Object.entries(DEFAULT_HEADERS)) if (!named.has(name)) lines.push(`${name}: ${value}\r\n`);
  block = lines.join('');
  headerBlocks.set(headers, block);
  return block;
}

/** The kept-alive connections to one origin, and the requests waiting for one. */
class OriginPool {
  private readonly secure: boolean;
  private readonly hostname: string;
  private readonly port: number;
  /** `Host: …\r\n`, the same for every request. */
  private readonly hostLine: string;
  private readonly idle: Connection[] = [];
  /** Every open connection, idle or in use (closing the pool ends them all). */
  private readonly all = new Set<Connection>();
  private open = 0;
  private readonly waiting: Exchange[] = [];
  private closed = false;

  constructor(
    base: string,
    private readonly settings: PoolSettings,
  ) {
    const url = new URL(base);
    this.secure = url.protocol === 'https:';
    if (!this.secure && url.protocol !== 'http:') throw new HttpTransportError(`unsupported protocol ${url.protocol} (http: or https:)`, false);
    // An IPv6 literal comes bracketed in a URL, bare for a socket.
    this.hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = url.port === '' ? (this.secure ? 443 : 80) : Number(url.port);
    this.hostLine = `Host: ${url.host}\r\n`;
  }

  send(request: HttpRequest, path: string): Promise<HttpReply> {
    return new Promise<HttpReply>((resolve, reject) => {
      if (request.signal?.aborted === true) {
        reject(new HttpTransportError('aborted before it was sent', false));
        return;
      }
      let text: string;
      try {
        if (!isSafeHeaderText(path) || path.includes(' ')) throw new HttpTransportError('invalid request path (spaces or line breaks)', false);
        const body = request.body ?? '';
        const length = request.body === undefined && request.method === 'GET' ? '' : `content-length: ${Buffer.byteLength(body, 'utf8')}\r\n`;
        text = `${request.method} ${path} HTTP/1.1\r\n${this.hostLine}${headerBlock(request.headers)}${length}\r\n${body}`;
      } catch (error: unknown) {
        reject(error instanceof HttpTransportError ? error : new HttpTransportError(String(error), false));
        return;
      }
      const exchange = new Exchange(request, text, this.settings, resolve, reject);
      exchange.start();
      this.lease(exchange);
    });
  }

  close(): void {
    this.closed = true;
    this.idle.splice(0);
    for (const connection of this.all) connection.destroy();
    for (const exchange of this.waiting.splice(0)) exchange.fail(new HttpTransportError('the transport was closed', false));
  }

  /** Gives the exchange a free connection now, a new one, or one when it is freed. */
  private lease(exchange: Exchange): void {
    if (exchange.settled) return;
    for (let connection = this.idle.pop(); connection !== undefined; connection = this.idle.pop()) {
      if (connection.usable) {
        connection.run(exchange);
        return;
      }
      this.open--;
      this.all.delete(connection);
      connection.destroy();
    }
    if (this.open < this.settings.maxSockets) {
      this.open++;
      const connection = new Connection((onChunk) => this.connectSocket(onChunk), this.secure, this.settings, this);
      this.all.add(connection);
      connection.run(exchange);
      return;
    }
    this.waiting.push(exchange);
  }

  private connectSocket(onChunk: OnChunk): Socket {
    let socket: Socket;
    if (this.secure) {
      socket = tlsConnect({ host: this.hostname, port: this.port, servername: /^[\d.]+$|:/.test(this.hostname) ? '' : this.hostname, ALPNProtocols: ['http/1.1'] });
      socket.on('data', (chunk: Buffer) => onChunk(chunk, false));
    } else {
      // Node's stream path allocates a 64 KiB buffer per read, trims it and pushes it through Readable:
      // about 3 of the ~15 CPU µs a bare loopback round trip costs.
      const buffer = this.settings.readBuffer;
      socket = netConnect({
        host: this.hostname,
        port: this.port,
        onread: {
          buffer,
          callback: (length: number) => {
            onChunk(buffer.subarray(0, length), true);
            return true;
          },
        },
      });
    }
    socket.setNoDelay(true);
    if (!this.settings.socketsHold) socket.unref();
    return socket;
  }

  /** A connection finished its exchange: kept for the next request, or gone. */
  release(connection: Connection, reusable: boolean): void {
    if (!reusable || this.closed) {
      this.open--;
      this.all.delete(connection);
      connection.destroy();
    } else {
      this.idle.push(connection);
    }
    for (let next = this.waiting.shift(); next !== undefined; next = this.waiting.shift()) {
      if (next.settled) continue;
      this.lease(next);
      return;
    }
  }

  /** An idle connection the server closed (or that idled out) leaves the pool. */
  forget(connection: Connection): void {
    const at = this.idle.indexOf(connection);
    if (at >= 0) {
      this.idle.splice(at, 1);
      this.open--;
      this.all.delete(connection);
    }
  }
}

/** One request's life: its text, its timers, and how it ends (once). */
class Exchange {
  settled = false;
  private totalTimer: Deadline | undefined;
  private phaseTimer: Deadline | undefined;
  private onAbort: (() => void) | undefined;
  /** Called to drop the connection the exchange holds, when it fails. */
  drop: (() => void) | undefined;

  constructor(
    readonly request: HttpRequest,
    readonly text: string,
    private readonly settings: PoolSettings,
    private readonly resolve: (reply: HttpReply) => void,
    private readonly reject: (error: HttpTransportError) => void,
  ) {}

  start(): void {
    const { timeoutMs, signal } = this.request;
    this.totalTimer = this.settings.deadlines.add(timeoutMs, () => this.timeOut('total', timeoutMs));
    if (signal !== undefined) {
      this.onAbort = () => this.fail(new HttpTransportError('aborted', false));
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** Arms the connect or response deadline, when it is shorter than the whole request's. */
  arm(phase: Exclude<Phase, 'total'>, ms: number | undefined): void {
    this.phaseTimer?.cancel();
    this.phaseTimer = ms !== undefined && ms < this.request.timeoutMs ? this.settings.deadlines.add(ms, () => this.timeOut(phase, ms)) : undefined;
  }

  disarm(): void {
    this.phaseTimer?.cancel();
    this.phaseTimer = undefined;
  }

  succeed(reply: HttpReply): void {
    if (this.settled) return;
    this.finish();
    this.resolve(reply);
  }

  fail(error: HttpTransportError): void {
    if (this.settled) return;
    this.finish();
    this.drop?.();
    this.reject(error);
  }

  private timeOut(phase: Phase, ms: number): void {
    this.fail(new HttpTransportError(`timed out: ${phase === 'total' ? 'no complete reply' : phase === 'connect' ? 'no connection' : 'no reply'} within ${ms} ms`, true));
  }

  private finish(): void {
    this.settled = true;
    this.totalTimer?.cancel();
    this.phaseTimer?.cancel();
    if (this.onAbort !== undefined) this.request.signal?.removeEventListener('abort', this.onAbort);
  }
}

/** One socket: runs one exchange at a time; idle between them, closed after `idleMs` unused. */
class Connection {
  private current: Exchange | undefined;
  private reader: Http1ReplyReader | undefined;
  private connected = false;
  private gone = false;
  private idleMs: number;
  private readonly socket: Socket;

  constructor(
    open: (onChunk: OnChunk) => Socket,
    secure: boolean,
    private readonly settings: PoolSettings,
    private readonly pool: Pick<OriginPool, 'release' | 'forget'>,
  ) {
    this.socket = open((chunk, shared) => this.onData(chunk, shared));
    const { socket } = this;
    this.idleMs = settings.idleMs;
    // One inactivity timer for the socket's life (Node refreshes it on every read and write): set once,
    // not twice per request; it closes the connection only while idle.
    socket.setTimeout(this.idleMs);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      this.connected = true;
      this.current?.disarm();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => this.onClose(`${error.code ?? error.name}: ${error.message}`));
    socket.on('close', () => this.onClose(undefined));
    socket.on('end', () => this.onEnd());
    // An idle connection unused for `idleMs` closes; a request in flight has its own deadlines.
    socket.on('timeout', () => {
      if (this.current === undefined) this.destroy();
    });
  }

  /** Still open and not in use: fit for another request. */
  get usable(): boolean {
    return !this.gone && this.current === undefined && !this.socket.destroyed && this.socket.writable;
  }

  run(exchange: Exchange): void {
    if (this.settings.socketsHold) this.socket.ref();
    this.current = exchange;
    exchange.drop = () => this.destroy();
    this.reader = new Http1ReplyReader(this.settings.maxBody, (head) => this.onHead(head));
    if (!this.connected) exchange.arm('connect', this.settings.connectTimeoutMs);
    const { request } = exchange;
    let told = false;
    this.socket.write(exchange.text, 'utf8', () => {
      if (this.current !== exchange || exchange.settled) return;
      exchange.arm('response', this.settings.responseTimeoutMs);
      if (!told) request.onWritten?.();
    });
    // All of it went to the kernel now (a connected socket, nothing queued): written now. The callback
    // above comes later, after the rest of this turn's work (Node defers it), so it would stamp late.
    if (this.connected && this.socket.writableLength === 0 && !exchange.settled) {
      told = true;
      request.onWritten?.();
    }
  }

  destroy(): void {
    this.gone = true;
    this.socket.destroy();
  }

  private onHead(head: ReplyHead): void {
    if (head.keepAliveSeconds !== undefined) {
      const idleMs = Math.min(this.settings.idleMs, Math.max(0, head.keepAliveSeconds * 1000 - 500));
      if (idleMs !== this.idleMs) {
        this.idleMs = idleMs;
        // 0 would disarm the timer: a server that keeps nothing alive gets its connection closed at once.
        this.socket.setTimeout(Math.max(1, idleMs));
      }
    }
    const exchange = this.current;
    if (exchange === undefined || exchange.settled) return;
    exchange.disarm();
    exchange.request.onResponse?.();
  }

  private onData(chunk: Buffer, shared: boolean): void {
    const exchange = this.current;
    const reader = this.reader;
    if (exchange === undefined || reader === undefined) {
      // Bytes nobody asked for: the connection's framing can no longer be trusted.
      this.destroy();
      return;
    }
    const progress = reader.feed(chunk);
    // A reply not complete yet keeps its bytes past this read: out of the shared buffer with them.
    // A complete one is decoded before this returns (decodeBody reads or copies it).
    if (shared && progress.kind === 'more') reader.ownBytes();
    this.progress(exchange, progress);
  }

  private onEnd(): void {
    const exchange = this.current;
    if (exchange !== undefined && this.reader !== undefined) this.progress(exchange, this.reader.end());
    this.gone = true;
  }

  private onClose(reason: string | undefined): void {
    this.gone = true;
    const exchange = this.current;
    if (exchange !== undefined) {
      this.current = undefined;
      const progress = reason === undefined && this.reader !== undefined ? this.reader.end() : undefined;
      if (progress?.kind === 'done') this.complete(exchange, progress, false);
      else exchange.fail(new HttpTransportError(reason ?? (progress?.kind === 'error' ? progress.message : 'ECONNRESET: the connection closed'), false));
      this.pool.release(this, false);
      return;
    }
    this.pool.forget(this);
  }

  private progress(exchange: Exchange, progress: ReplyProgress): void {
    if (progress.kind === 'more') return;
    if (progress.kind === 'error') {
      this.current = undefined;
      exchange.fail(new HttpTransportError(progress.message, false));
      this.pool.release(this, false);
      return;
    }
    this.current = undefined;
    this.reader = undefined;
    const reusable = progress.head.keepAlive && !progress.extra && !this.gone && !exchange.settled;
    this.complete(exchange, progress, reusable);
  }

  private complete(exchange: Exchange, progress: Extract<ReplyProgress, { kind: 'done' }>, reusable: boolean): void {
    exchange.drop = undefined;
    // An idle connection neither keeps the process up nor holds a timer on the deadline list.
    if (reusable && this.settings.socketsHold) this.socket.unref();
    this.pool.release(this, reusable);
    const { head } = progress;
    decodeBody(progress.body, head.headers['content-encoding'], this.settings.maxBody, (decoded) => {
      if (typeof decoded === 'string') exchange.succeed({ status: head.status, headers: head.headers, body: decoded });
      else exchange.fail(decoded);
    });
  }
}
