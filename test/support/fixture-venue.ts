import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small loopback HTTP server for client tests: real HTTP, no request mocking. It records every
 * request as it arrived on the wire, checks the signature independently of the client's signer, and
 * answers from replies queued per route ("METHOD /path").
 */
export interface FixtureReply {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON unless it is a string (sent raw). */
  readonly body: unknown;
  /** Delay before answering (for timeout tests). */
  readonly delayMs?: number;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly rawBody: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Query pairs then form-body pairs, in arrival order, signature removed. */
  readonly params: ReadonlyArray<readonly [string, string]>;
  /** Parsed JSON body, when the body is JSON. */
  readonly json: unknown;
  /** Whether a signature was present and verified against the secret. */
  readonly signature: 'valid' | 'invalid' | 'absent';
  /** The text the server hashed: the query alone when a query-only signature matched, else query + body. */
  readonly signedText: string;
}

/** Paths whose signature may cover the query alone, the JSON body unsigned (API-NOTES §1.2 RULE: v1 batchOrders). */
const QUERY_ONLY_SIGNED: ReadonlySet<string> = new Set(['/api/v1/futures/batchOrders']);

export class FixtureVenue {
  readonly requests: RecordedRequest[] = [];
  private readonly replies = new Map<string, FixtureReply[]>();
  private readonly fallback = new Map<string, FixtureReply>();

  private constructor(
    private readonly server: Server,
    readonly secret: string,
  ) {}

  static async start(secret = 'fixture-secret'): Promise<FixtureVenue> {
    const holder: { venue?: FixtureVenue } = {};
    const server = createServer((req, res) => {
      void holder.venue?.handle(req, res);
    });
    const venue = new FixtureVenue(server, secret);
    holder.venue = venue;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return venue;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Queues a reply for the next request on that route (`GET /api/v1/time`). */
  reply(route: string, reply: FixtureReply): this {
    const list = this.replies.get(route) ?? [];
    list.push(reply);
    this.replies.set(route, list);
    return this;
  }

  /** Answers every request on the route with this reply once the queue is empty. */
  always(route: string, reply: FixtureReply): this {
    this.fallback.set(route, reply);
    return this;
  }

  last(): RecordedRequest {
    const request = this.requests[this.requests.length - 1];
    if (request === undefined) throw new Error('no request was received');
    return request;
  }

  clear(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    const recorded = this.record(req, path, rawQuery, rawBody);
    this.requests.push(recorded);
    const route = `${req.method ?? 'GET'} ${path}`;
    const queued = this.replies.get(route);
    const reply = queued !== undefined && queued.length > 0 ? queued.shift() : this.fallback.get(route);
    if (reply === undefined) {
      res.writeHead(404, { 'content-type': 'text/html', traceId: 'fixture-404' });
      res.end(`<html>no fixture for ${route}</html>`);
      return;
    }
    if (reply.delayMs !== undefined) await new Promise((r) => setTimeout(r, reply.delayMs).unref());
    if (res.destroyed) return;
    const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', traceId: `trace-${this.requests.length}`, ...reply.headers });
    res.end(body);
  }

  private record(req: IncomingMessage, path: string, rawQuery: string, rawBody: string): RecordedRequest {
    const isJson = /^\s*[[{]/.test(rawBody);
    let query = rawQuery;
    let body = rawBody;
    let signature: string | undefined;
    const cut = (text: string): string => {
      const pairs = text.split('&');
      const kept = pairs.filter((p) => {
        if (p.startsWith('signature=')) {
          signature = p.slice('signature='.length);
          return false;
        }
        return true;
      });
      return kept.join('&');
    };
    query = cut(query);
    if (signature === undefined && !isJson && body !== '') body = cut(body);
    const fullText = query + (isJson ? body.replace(/[\r\n]/g, '') : body);
    const hmac = (text: string): string => createHmac('sha256', this.secret).update(text, 'utf8').digest('hex');
    const queryOnly = signature !== undefined && QUERY_ONLY_SIGNED.has(path) && signature === hmac(query);
    const signedText = queryOnly ? query : fullText;
    const params: Array<readonly [string, string]> = [];
    const addPairs = (text: string): void => {
      if (text === '') return;
      for (const [k, v] of new URLSearchParams(text)) params.push([k, v]);
    };
    addPairs(query);
    if (!isJson) addPairs(body);
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return {
      method: req.method ?? 'GET',
      path,
      rawQuery,
      rawBody,
      headers,
      params,
      json: isJson ? (JSON.parse(rawBody) as unknown) : undefined,
      signature: signature === undefined ? 'absent' : queryOnly || signature === hmac(fullText) ? 'valid' : 'invalid',
      signedText,
    };
  }
}

/** Params as a plain object (last value wins), for concise assertions. */
export function paramsOf(request: RecordedRequest): Record<string, string> {
  return Object.fromEntries(request.params);
}
