import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders, RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { asyncScheduler } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import type { HttpPort, HttpReply, HttpRequest } from './http-port.js';
import { checkRequestHeader, HttpTransportError } from './http-port.js';
import { decodeBody } from './reply-body.js';

/**
 * HttpPort over Node's own `http`/`https` with kept-alive connections: the REST hot paths' transport
 * (got's per-request work is several times a bare request's; README "The exchange client"). No retries,
 * no redirects, the body sent byte for byte as given; gzip, deflate and br replies are decompressed.
 */
export interface NodeHttpOptions {
  /** Largest reply body accepted, after decompression (default 64 MiB): a larger one fails the request. */
  readonly maxBodyBytes?: number;
  /** Longest wait for a new connection (TCP, and TLS for https) (default 5 s; never beyond the request's own timeout). */
  readonly connectTimeoutMs?: number;
  /** Longest wait from the request written to the reply's status line (default: the request's whole timeout). */
  readonly responseTimeoutMs?: number;
  /** Connections per origin at most; more requests wait for a free one (default 64). */
  readonly maxSocketsPerOrigin?: number;
  /** How long an idle kept-alive connection stays open (default 15 s; a shorter `Keep-Alive: timeout` from the server wins). */
  readonly idleSocketMs?: number;
  /** Where the request deadlines run (default: the process's real timers; a virtual scheduler in tests). */
  readonly scheduler?: SchedulerLike;
}

export interface NodeHttp extends HttpPort {
  /** Closes every connection (in-flight requests fail as network errors); later requests open new ones. */
  close(): void;
}

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_SOCKETS = 64;
const DEFAULT_IDLE_SOCKET_MS = 15_000;

/** Headers sent unless the request names them. */
const DEFAULT_HEADERS: OutgoingHttpHeaders = { 'user-agent': 'stratd', 'accept-encoding': 'gzip, deflate, br' };

interface Origin {
  readonly send: (options: RequestOptions) => ClientRequest;
  readonly agent: HttpAgent;
  readonly hostname: string;
  readonly port: number;
}

type Phase = 'connect' | 'response' | 'total';

export function createNodeHttp(options: NodeHttpOptions = {}): NodeHttp {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const responseTimeoutMs = options.responseTimeoutMs;
  const scheduler = options.scheduler ?? asyncScheduler;
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSocketsPerOrigin ?? DEFAULT_MAX_SOCKETS,
    timeout: options.idleSocketMs ?? DEFAULT_IDLE_SOCKET_MS,
    scheduling: 'lifo',
    noDelay: true,
  } as const;
  const origins = new Map<string, Origin>();

  const originOf = (base: string): Origin => {
    const known = origins.get(base);
    if (known !== undefined) return known;
    const url = new URL(base);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') throw new HttpTransportError(`unsupported protocol ${url.protocol} (http: or https: only)`, false);
    const agent = secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    const origin: Origin = {
      send: secure ? httpsRequest : httpRequest,
      agent,
      // An IPv6 literal comes bracketed in a URL, bare in a request's host.
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
    };
    origins.set(base, origin);
    return origin;
  };

  const send = (request: HttpRequest): Promise<HttpReply> =>
    new Promise<HttpReply>((resolve, reject) => {
      const { url } = request;
      const scheme = url.indexOf('://');
      const slash = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
      let origin: Origin;
      try {
        if (scheme < 0) throw new HttpTransportError('the URL has no scheme (http:// or https://)', false);
        origin = originOf(slash < 0 ? url : url.slice(0, slash));
      } catch (error: unknown) {
        reject(error instanceof HttpTransportError ? error : new HttpTransportError(`invalid URL: ${error instanceof Error ? error.message : String(error)}`, false));
        return;
      }
      const { signal } = request;
      if (signal?.aborted === true) {
        reject(new HttpTransportError('aborted before it was sent', false));
        return;
      }
      let settled = false;
      let phaseTimer: Subscription | undefined;
      const finish = (): void => {
        settled = true;
        totalTimer.unsubscribe();
        phaseTimer?.unsubscribe();
        signal?.removeEventListener('abort', onAbort);
      };
      const fail = (error: HttpTransportError): void => {
        if (settled) return;
        finish();
        req.destroy();
        reject(error);
      };
      const timeOut = (phase: Phase, ms: number): void => fail(new HttpTransportError(`timed out: ${phase === 'total' ? 'no complete reply' : phase === 'connect' ? 'no connection' : 'no reply'} within ${ms} ms`, true));
      const onAbort = (): void => fail(new HttpTransportError('aborted', false));
      const arm = (phase: Phase, ms: number): void => {
        phaseTimer?.unsubscribe();
        phaseTimer = ms < request.timeoutMs ? scheduler.schedule(() => timeOut(phase, ms), ms) : undefined;
      };

      const req = origin.send({
        agent: origin.agent,
        hostname: origin.hostname,
        port: origin.port,
        path: slash < 0 ? '/' : url.slice(slash),
        method: request.method,
        headers: withDefaults(request.headers),
      });
      const totalTimer = scheduler.schedule(() => timeOut('total', request.timeoutMs), request.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error: NodeJS.ErrnoException) => fail(new HttpTransportError(`${error.code ?? error.name}: ${error.message}`, false)));
      req.once('socket', (socket: Socket) => {
        if (!socket.connecting) return;
        arm('connect', connectTimeoutMs);
        socket.once(origin.agent instanceof HttpsAgent ? 'secureConnect' : 'connect', () => {
          if (!settled) phaseTimer?.unsubscribe();
        });
      });
      req.once('finish', () => {
        if (settled) return;
        if (responseTimeoutMs !== undefined) arm('response', responseTimeoutMs);
        request.onWritten?.();
      });
      req.once('response', (res: IncomingMessage) => {
        if (settled) {
          res.resume();
          return;
        }
        phaseTimer?.unsubscribe();
        request.onResponse?.();
        readReply(res, maxBody, fail, (reply) => {
          if (settled) return;
          finish();
          resolve(reply);
        });
      });
      req.end(request.body);
    });

  return {
    send,
    close(): void {
      for (const origin of origins.values()) origin.agent.destroy();
      origins.clear();
    },
  };
}

/** The request's headers with the defaults it does not name; merged once per headers object (the REST transport reuses its own). */
const merged = new WeakMap<object, OutgoingHttpHeaders>();
function withDefaults(headers: Readonly<Record<string, string>>): OutgoingHttpHeaders {
  let out = merged.get(headers);
  if (out === undefined) {
    for (const [name, value] of Object.entries(headers)) checkRequestHeader(name, value);
    out = { ...DEFAULT_HEADERS, ...headers };
    merged.set(headers, out);
  }
  return out;
}

/** Reads the reply's body within `maxBody` bytes (as sent and decompressed), then decodes it. */
function readReply(res: IncomingMessage, maxBody: number, fail: (error: HttpTransportError) => void, done: (reply: HttpReply) => void): void {
  const tooLarge = (): HttpTransportError => new HttpTransportError(`reply body larger than ${maxBody} bytes`, false);
  const declared = res.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBody) {
    fail(tooLarge());
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBody) fail(tooLarge());
    else chunks.push(chunk);
  });
  res.on('error', (error: NodeJS.ErrnoException) => fail(new HttpTransportError(`${error.code ?? error.name}: ${error.message} (the reply was cut short)`, false)));
  res.on('close', () => {
    if (!ended) fail(new HttpTransportError('ECONNRESET: the connection closed before the reply was complete', false));
  });
  res.on('end', () => {
    ended = true;
    const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
    decodeBody(raw, res.headers['content-encoding'], maxBody, (decoded) => {
      if (typeof decoded !== 'string') {
        fail(decoded);
        return;
      }
      done({ status: res.statusCode ?? 0, headers: flatHeaders(res), body: decoded });
    });
  });
}

/** Header names are lower-cased by Node; a repeated header's values are joined. */
function flatHeaders(res: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  const { headers } = res;
  for (const name in headers) {
    const value = headers[name];
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
