import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import type { Deadline } from './deadline-list.js';
import { DeadlineList } from './deadline-list.js';
import type { HttpReply, HttpRequest } from './http-port.js';
import { checkRequestHeader, HttpTransportError } from './http-port.js';
import type { NodeHttp, NodeHttpOptions } from './node-http.js';
import { DEFAULT_MAX_BODY_BYTES } from './node-http.js';
import { decodeBody } from './reply-body.js';

/**
 * HttpPort over undici (the maintained HTTP/1.1 client ccxt itself sends through): one undici `Pool`
 * per origin, kept-alive connections, no pipelining (one request per connection at a time), no
 * retries, no redirects. The same options, timeouts and error semantics as the node:http and socket
 * adapters; gzip, deflate and br replies are decompressed (reply-body.ts). Requests go through
 * `Pool.dispatch` with a handler that collects the body itself (no stream per reply). undici waits one
 * event-loop turn before it reuses a connection, so back-to-back requests may use two connections.
 */
export function createUndiciHttp(options: NodeHttpOptions = {}): NodeHttp {
  const settings: Settings = {
    maxBody: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: options.responseTimeoutMs,
    deadlines: new DeadlineList(options.scheduler),
  };
  const idleMs = options.idleSocketMs ?? DEFAULT_IDLE_SOCKET_MS;
  const poolOptions: Pool.Options = {
    connections: options.maxSocketsPerOrigin ?? DEFAULT_MAX_SOCKETS,
    pipelining: 1,
    keepAliveTimeout: idleMs,
    // A shorter `Keep-Alive: timeout` from the server wins; never longer than ours.
    keepAliveMaxTimeout: idleMs,
    // The request's own deadlines (ours, on the scheduler given) bound the reply; undici's are off.
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: { timeout: settings.connectTimeoutMs, noDelay: true },
  };
  const origins = new Map<string, Pool>();

  const poolFor = (base: string): Pool => {
    const known = origins.get(base);
    if (known !== undefined) return known;
    const url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HttpTransportError(`unsupported protocol ${url.protocol} (http: or https: only)`, false);
    const pool = new Pool(url.origin, poolOptions);
    origins.set(base, pool);
    return pool;
  };

  const send = (request: HttpRequest): Promise<HttpReply> =>
    new Promise<HttpReply>((resolve, reject) => {
      const { url } = request;
      const scheme = url.indexOf('://');
      const slash = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
      let pool: Pool;
      let headers: Readonly<Record<string, string>>;
      try {
        if (scheme < 0) throw new HttpTransportError('the URL has no scheme (http:// or https://)', false);
        pool = poolFor(slash < 0 ? url : url.slice(0, slash));
        headers = requestHeaders(request.headers);
      } catch (error: unknown) {
        reject(error instanceof HttpTransportError ? error : new HttpTransportError(`invalid URL: ${error instanceof Error ? error.message : String(error)}`, false));
        return;
      }
      if (request.signal?.aborted === true) {
        reject(new HttpTransportError('aborted before it was sent', false));
        return;
      }
      const handler = new ReplyHandler(request, settings, resolve, reject);
      handler.start();
      pool.dispatch({ path: slash < 0 ? '/' : url.slice(slash), method: request.method, headers, body: request.body ?? null }, handler);
    });

  return {
    send,
    close(): void {
      for (const pool of origins.values()) pool.destroy().catch(() => undefined);
      origins.clear();
    },
  };
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_SOCKETS = 64;
const DEFAULT_IDLE_SOCKET_MS = 15_000;

/** Headers sent unless the request names them (lower-case names). */
const DEFAULT_HEADERS: Readonly<Record<string, string>> = { 'user-agent': 'stratd', 'accept-encoding': 'gzip, deflate, br' };
/** Framing headers undici writes itself. */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade']);
/** undici's timeout errors: no connection, no head, or no body in time. */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

interface Settings {
  readonly maxBody: number;
  readonly connectTimeoutMs: number;
  readonly responseTimeoutMs: number | undefined;
  /** The request deadlines, on the scheduler given. */
  readonly deadlines: DeadlineList;
}

/** The request's headers, checked, without framing headers and with the defaults it does not name; once per headers object. */
const checked = new WeakMap<object, Readonly<Record<string, string>>>();
function requestHeaders(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  let out = checked.get(headers);
  if (out !== undefined) return out;
  const built: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (OWN_HEADERS.has(lower)) continue;
    checkRequestHeader(name, value);
    built[lower] = value;
  }
  for (const [name, value] of Object.entries(DEFAULT_HEADERS)) if (!(name in built)) built[name] = value;
  out = built;
  checked.set(headers, out);
  return out;
}

/**
 * One request's life as undici's dispatch handler: collects the reply within the body cap, runs the
 * request's deadlines and abort signal, and settles once. (undici's own `request()` is built on the
 * same handler interface; `onRequestSent` is only offered there.)
 */
class ReplyHandler implements Dispatcher.DispatchHandler {
  private settled = false;
  private abortDispatch: ((error?: Error) => void) | undefined;
  private totalTimer: Deadline | undefined;
  private phaseTimer: Deadline | undefined;
  private onAbort: (() => void) | undefined;
  private status = 0;
  private headers: Record<string, string | undefined> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly request: HttpRequest,
    private readonly settings: Settings,
    private readonly resolve: (reply: HttpReply) => void,
    private readonly reject: (error: HttpTransportError) => void,
  ) {}

  start(): void {
    const { timeoutMs, signal } = this.request;
    this.totalTimer = this.settings.deadlines.add(timeoutMs, () => this.fail(new HttpTransportError(`timed out: no complete reply within ${timeoutMs} ms`, true)));
    if (signal !== undefined) {
      this.onAbort = () => this.fail(new HttpTransportError('aborted', false));
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** undici hands the request to a connection (again, if it retried it). */
  onConnect(abort: (error?: Error) => void): void {
    // Settled while it waited for a connection: it goes no further.
    if (this.settled) abort(new HttpTransportError('the request ended before it was sent', false));
    else this.abortDispatch = abort;
  }

  /** The request was written to the socket. */
  onRequestSent(): void {
    if (this.settled) return;
    const ms = this.settings.responseTimeoutMs;
    if (ms !== undefined && ms < this.request.timeoutMs) this.phaseTimer = this.settings.deadlines.add(ms, () => this.fail(new HttpTransportError(`timed out: no reply within ${ms} ms`, true)));
    this.request.onWritten?.();
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (this.settled || statusCode < 200) return true;
    this.phaseTimer?.cancel();
    this.status = statusCode;
    this.headers = flatHeaders(rawHeaders);
    const declared = this.headers['content-length'];
    if (declared !== undefined && Number(declared) > this.settings.maxBody) {
      this.fail(this.tooLarge());
      return false;
    }
    this.request.onResponse?.();
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return true;
    this.size += chunk.length;
    if (this.size > this.settings.maxBody) {
      this.fail(this.tooLarge());
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    const raw = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    const { status, headers } = this;
    decodeBody(raw, headers['content-encoding'], this.settings.maxBody, (decoded) => {
      if (typeof decoded !== 'string') {
        this.fail(decoded);
        return;
      }
      if (this.settled) return;
      this.finish();
      this.resolve({ status, headers, body: decoded });
    });
  }

  onError(error: Error): void {
    this.fail(error instanceof HttpTransportError ? error : transportError(error, this.settings.connectTimeoutMs));
  }

  private fail(error: HttpTransportError): void {
    if (this.settled) return;
    this.finish();
    // Ends the exchange on its connection (undici then closes that socket), if it has one yet.
    const abort = this.abortDispatch;
    this.abortDispatch = undefined;
    abort?.(error);
    this.reject(error);
  }

  private finish(): void {
    this.settled = true;
    this.totalTimer?.cancel();
    this.phaseTimer?.cancel();
    if (this.onAbort !== undefined) this.request.signal?.removeEventListener('abort', this.onAbort);
  }

  private tooLarge(): HttpTransportError {
    return new HttpTransportError(`reply body larger than ${this.settings.maxBody} bytes`, false);
  }
}

/** An undici or socket error as a transport error: its code and message (never the URL, whose query carries the signature). */
function transportError(error: Error, connectTimeoutMs: number): HttpTransportError {
  const code = (error as NodeJS.ErrnoException).code ?? error.name;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new HttpTransportError(`timed out: no connection within ${connectTimeoutMs} ms`, true);
  return new HttpTransportError(`${code}: ${error.message}`, TIMEOUT_CODES.has(code));
}

/** undici's raw header list (name, value, name, value…) as lower-cased names; a repeated header's values are joined. */
function flatHeaders(raw: Buffer[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as Buffer).toString('latin1').toLowerCase();
    const value = (raw[i + 1] as Buffer).toString('latin1');
    const before = out[name];
    out[name] = before === undefined ? value : `${before}, ${value}`;
  }
  return out;
}
