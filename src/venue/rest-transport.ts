import { Subject } from 'rxjs';
import { EventBus } from '../core/event-bus.js';
import type { Clock } from '../core/clock.js';
import type { OrderedParams } from '../core/ordered-params.js';
import { encodeParams } from '../core/ordered-params.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { ApiCredentials } from './credentials.js';
import type { EndpointDef } from '../protocol/endpoints.js';
import { endpointLabel } from '../protocol/endpoints.js';
import type { HttpPort, HttpReply, HttpRequest } from './http-port.js';
import { HttpTransportError } from './http-port.js';
import type { RateGovernor } from './rate-governor.js';
import { laneOf } from './rate/index.js';
import { textSigner } from '../protocol/signer.js';
import type { TimeSync } from './time-sync.js';
import { VenueError } from './venue-error.js';
import type { JsonWireValue } from '../protocol/json-writer.js';
import { writeWireJson } from '../protocol/json-writer.js';
import type { SkippedRows } from './wire/tolerant-list.js';
import { parseWireJson } from '../protocol/wire-json.js';
import { redactSecretText, replyExcerpt } from '../core/secret-text.js';
import { ErrorCode, leavesStatusUnknown } from '../protocol/error-codes.js';

export interface RestRequest {
  readonly endpoint: EndpointDef;
  /** Business parameters sent in the query string (GET, DELETE, and beside a JSON body). */
  readonly query?: OrderedParams;
  /** Business parameters sent as an `application/x-www-form-urlencoded` body (v1 writes). */
  readonly form?: OrderedParams;
  /** A JSON body (v2 writes, batches, follower PUTs); signed as query + raw body. */
  readonly json?: JsonWireValue;
  /** A JSON body given as text (`stratd call --json`): sent and signed exactly as written, minus line breaks. */
  readonly rawJson?: string;
  /** Values for `{name}` placeholders in the path. */
  readonly pathParams?: Readonly<Record<string, string>>;
  /** Request weight when it depends on the parameters (depth limit, all-symbol tickers). */
  readonly weight?: number;
  /** ORDERS budget spent (batch legs); defaults to 1 for endpoints that spend it. */
  readonly orders?: number;
  /** Hooks for latency figures: the request handed to the socket, the reply's arrival. */
  readonly trace?: RequestTrace;
}

/** Hooks into one request's life on the wire (each attempt of it: a -1021 retry calls them again). */
export interface RequestTrace {
  /** The signed request is being handed to the HTTP client (each attempt). */
  readonly sending?: () => void;
  /** The signed request has been handed to the socket. */
  readonly written?: () => void;
  /** The reply's status line and headers have arrived. */
  readonly answered?: () => void;
}

/** What the typed APIs need of a transport: one call, and where the rows a parse skipped are reported. */
export interface RestCaller {
  call(request: RestRequest): Promise<Result<unknown, VenueError>>;
  /** Rows of a list reply that lacked what stratd needs and were left out (README "The exchange client"). */
  reportSkipped(skipped: SkippedRows): void;
}

/** A caller whose every request carries `trace` (one poll channel's, one order command's). */
export function tracedCaller(rest: RestCaller, trace: RequestTrace): RestCaller {
  return { call: (request) => rest.call({ ...request, trace }), reportSkipped: (skipped) => rest.reportSkipped(skipped) };
}

export interface RestTransportOptions {
  readonly baseUrl: string;
  readonly credentials?: ApiCredentials;
  readonly recvWindowMs: number;
  readonly timeoutMs: number;
}

/** What the transport saw, for metrics and logs (never carries secrets or signatures). */
export interface RestExchange {
  readonly endpoint: string;
  readonly status: number | 'network-error' | 'timeout';
  readonly latencyMs: number;
  readonly traceId: string | undefined;
  readonly code: number | string | undefined;
}

/** The signed text and the wire form of one request: exposed for tests of the signing rules. */
export interface SignedRequest {
  readonly url: string;
  readonly body: string | undefined;
  readonly contentType: string | undefined;
  readonly signedText: string | undefined;
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
type BodyType = 'none' | 'form' | 'json';

/** Extra attempts of a GET whose outcome was a 5xx, a timeout or a network error. */
const READ_RETRIES = 2;

/**
 * Builds, signs, rate-governs and sends one REST request and interprets the reply envelope:
 * v1 bare JSON (an error carries a negative `code`), v2 `{code,msg,data}` (yields `data`).
 * On -1021 it re-syncs the clock once and retries that request once; a GET that met a 5xx, a timeout
 * or a network error is retried twice at once (reads are safe to repeat; writes never are).
 */
export class RestTransport implements RestCaller {
  /**
   * Each attempt's round trip as it ends: a plain bus (`listen`; an rxjs Subject's dispatch cost ~11–15 µs
   * of a poll's `parse` stage, one-run stamps). Reported before the reply's payload goes on, except a
   * traced request's answer (a poll on its way to the kernel, an order command): its figures are taken
   * at the reply and reported once the promise reactions its payload set off have run (`process.nextTick`
   * from a reaction), so after the orders a polled market event led to were written. The report and
   * the metric behind it cost ~13 µs cold there (the tick's `nextTick` ~6), and each 1,024th report
   * hands the held REST latencies to prom-client.
   */
  readonly exchanges = new EventBus<RestExchange>();
  /** Answers of traced requests not reported yet (`reportLater`). */
  private deferred: RestExchange[] = [];
  /** Rows of list replies that were skipped, one value per reply (the daemon logs and counts them). */
  readonly skippedRows$ = new Subject<SkippedRows>();
  private pending = 0;
  private readonly sign: (text: string) => string;
  /** The request headers by body type, built once (a request's headers never vary beyond these). */
  private readonly headers: Readonly<Record<'public' | 'signed', Readonly<Record<BodyType, Readonly<Record<string, string>>>>>>;

  constructor(
    private readonly http: HttpPort,
    private readonly options: RestTransportOptions,
    private readonly governor: RateGovernor,
    private readonly timeSync: TimeSync,
    private readonly clock: Clock,
  ) {
    this.sign = textSigner(options.credentials?.apiSecret ?? '');
    const apiKey = options.credentials === undefined ? {} : { 'x-bb-apikey': options.credentials.apiKey };
    const byBody = (extra: Readonly<Record<string, string>>): Record<BodyType, Readonly<Record<string, string>>> => ({
      none: { accept: 'application/json', ...extra },
      form: { accept: 'application/json', 'content-type': FORM, ...extra },
      json: { accept: 'application/json', 'content-type': JSON_TYPE, ...extra },
    });
    this.headers = { public: byBody({}), signed: byBody(apiKey) };
  }

  get hasCredentials(): boolean {
    return this.options.credentials !== undefined;
  }

  /** Sends the request; yields the payload (v1 body, v2 `data`). */
  async call(request: RestRequest): Promise<Result<unknown, VenueError>> {
    // An answered request takes no second async hop (callRaw's): the retries are only on the way of a failure.
    const first = await this.callOnce(request);
    const reply = first.ok ? first : await this.retry(request, first);
    return reply.ok ? ok(reply.value.payload) : reply;
  }

  reportSkipped(skipped: SkippedRows): void {
    this.skippedRows$.next(skipped);
  }

  /** Requests on the wire and not answered yet (a request waiting for rate budget is not on the wire). */
  get inFlight(): number {
    return this.pending;
  }

  /** Sends the request; yields the whole parsed reply body beside the payload (for `stratd call`). */
  async callRaw(request: RestRequest): Promise<Result<{ readonly payload: unknown; readonly body: unknown }, VenueError>> {
    const first = await this.callOnce(request);
    return first.ok ? first : this.retry(request, first);
  }

  /** After a failed first attempt: -1021 re-syncs the clock and sends once more; a read that met no answer or a 5xx is asked again. */
  private async retry(request: RestRequest, failed: Result<never, VenueError>): Promise<Result<{ readonly payload: unknown; readonly body: unknown }, VenueError>> {
    let reply: Result<{ readonly payload: unknown; readonly body: unknown }, VenueError> = failed;
    if (!reply.ok && reply.error.code === ErrorCode.INVALID_TIMESTAMP) {
      const resync = await this.timeSync.sync();
      if (resync.ok) reply = await this.callOnce(request);
    }
    // A read changes nothing: one that met a server error or no answer is asked again at once.
    for (let retry = 0; retry < READ_RETRIES && !reply.ok && reply.error.kind === 'unknown-status' && request.endpoint.method === 'GET'; retry++) {
      reply = await this.callOnce(request);
    }
    return reply;
  }

  /** The exact URL, body and signed text a request would be sent with at server time `timestamp`. */
  buildSigned(request: RestRequest, timestamp: number): SignedRequest {
    const { endpoint } = request;
    const path = fillPath(endpoint.path, request.pathParams);
    const signed = endpoint.security !== 'NONE';
    // The signed parameters go last, after the business ones: `recvWindow=…&timestamp=…` (digits: nothing to encode).
    const auth = signed ? `recvWindow=${this.options.recvWindowMs}&timestamp=${timestamp}` : '';
    if (request.json !== undefined || request.rawJson !== undefined) {
      const body = request.rawJson !== undefined ? request.rawJson.replace(/[\r\n]/g, '') : writeWireJson(request.json ?? null);
      const query = joinParams(encodeParams(request.query ?? []), auth);
      if (!signed) return { url: withQuery(this.options.baseUrl + path, query), body, contentType: JSON_TYPE, signedText: undefined };
      const signedText = endpoint.signsQueryOnly === true ? query : query + body;
      const signature = this.sign(signedText);
      return {
        url: withQuery(this.options.baseUrl + path, `${query}${query === '' ? '' : '&'}signature=${signature}`),
        body,
        contentType: JSON_TYPE,
        signedText,
      };
    }
    if (request.form !== undefined) {
      const body = joinParams(encodeParams(request.form), auth);
      const query = encodeParams(request.query ?? []);
      if (!signed) return { url: withQuery(this.options.baseUrl + path, query), body, contentType: FORM, signedText: undefined };
      const signedText = query + body;
      return {
        url: withQuery(this.options.baseUrl + path, query),
        body: `${body}&signature=${this.sign(signedText)}`,
        contentType: FORM,
        signedText,
      };
    }
    const query = joinParams(encodeParams(request.query ?? []), auth);
    if (!signed) return { url: withQuery(this.options.baseUrl + path, query), body: undefined, contentType: undefined, signedText: undefined };
    return {
      url: withQuery(this.options.baseUrl + path, `${query}&signature=${this.sign(query)}`),
      body: undefined,
      contentType: undefined,
      signedText: query,
    };
  }

  private async callOnce(request: RestRequest): Promise<Result<{ readonly payload: unknown; readonly body: unknown }, VenueError>> {
    const { endpoint } = request;
    const label = endpointLabel(endpoint);
    const signed = endpoint.security !== 'NONE';
    if (signed && this.options.credentials === undefined) {
      return err(new VenueError({ kind: 'invalid-request', endpoint: label, rule: 'credentials', message: 'this endpoint is signed but no API key and secret are configured' }));
    }
    const cost = { weight: request.weight ?? endpoint.weight, orders: endpoint.ordersBudget ? (request.orders ?? 1) : 0, lane: laneOf(endpoint, request) };
    // Granted now, the request is written in this same turn (no promise hop between the journal and the socket).
    const permit = this.governor.tryAcquire(cost) ?? (await this.governor.acquire(cost));
    if (!permit.ok) {
      return err(new VenueError({ kind: 'banned', endpoint: label, message: 'sending is halted after HTTP 418 (IP ban)', ...(permit.error.until === undefined ? {} : { retryAt: permit.error.until }) }));
    }
    const wire = this.buildSigned(request, this.timeSync.serverNow());
    const headers = this.headers[signed ? 'signed' : 'public'][wire.contentType === FORM ? 'form' : wire.contentType === JSON_TYPE ? 'json' : 'none'];
    const started = this.clock.now();
    let reply: HttpReply;
    this.pending++;
    request.trace?.sending?.();
    try {
      // Built field by field: no spread of a temporary object per optional field.
      const send: { -readonly [K in keyof HttpRequest]: HttpRequest[K] } = { method: endpoint.method, url: wire.url, headers, timeoutMs: this.options.timeoutMs };
      if (wire.body !== undefined) send.body = wire.body;
      if (request.trace?.written !== undefined) send.onWritten = request.trace.written;
      if (request.trace?.answered !== undefined) send.onResponse = request.trace.answered;
      reply = await this.http.send(send);
    } catch (error: unknown) {
      if (!(error instanceof HttpTransportError)) throw error;
      this.exchanges.next({ endpoint: label, status: error.timedOut ? 'timeout' : 'network-error', latencyMs: this.clock.now() - started, traceId: undefined, code: undefined });
      return err(new VenueError({ kind: 'unknown-status', endpoint: label, message: `${error.timedOut ? 'timed out' : 'network error'}: ${error.message}` }));
    } finally {
      this.pending--;
    }
    const outcome = this.interpret(endpoint, label, reply);
    const exchange: RestExchange = {
      endpoint: label,
      status: reply.status,
      latencyMs: this.clock.now() - started,
      traceId: reply.headers['traceid'],
      code: outcome.ok ? undefined : outcome.error.code,
    };
    if (outcome.ok && request.trace !== undefined) this.reportLater(exchange);
    else this.exchanges.next(exchange);
    return outcome;
  }

  private reportLater(exchange: RestExchange): void {
    this.deferred.push(exchange);
    if (this.deferred.length === 1) process.nextTick(this.reportDeferred);
  }

  private readonly reportDeferred = (): void => {
    const reports = this.deferred;
    this.deferred = [];
    for (const exchange of reports) this.exchanges.next(exchange);
  };

  private interpret(endpoint: EndpointDef, label: string, reply: HttpReply): Result<{ readonly payload: unknown; readonly body: unknown }, VenueError> {
    if (endpoint.security !== 'NONE') this.governor.observeHeaders(reply.headers);
    let body: unknown;
    let parsed = true;
    try {
      body = reply.body.trim() === '' ? undefined : parseWireJson(reply.body);
    } catch {
      parsed = false;
    }
    const { code, msg } = readCode(body);
    if (reply.status < 400 && parsed && (code === undefined || code === 200 || code === 0)) {
      // Answered: the error's fields (trace id, reset time) are read only on the way of a failure.
      if (endpoint.wire !== 'v2') return ok({ payload: body, body });
      if (isRecord(body) && 'code' in body) return ok({ payload: body['data'] ?? null, body });
    }
    return this.failure(label, reply, parsed, code, msg);
  }

  /** What a reply that is no answer stands for: rate limits and bans noted, an error with what the reply says. */
  private failure(label: string, reply: HttpReply, parsed: boolean, code: number | undefined, msg: string | undefined): Result<never, VenueError> {
    const traceId = reply.headers['traceid'];
    const base = { endpoint: label, httpStatus: reply.status, ...(traceId === undefined ? {} : { traceId }) };
    const reset = toNumber(reply.headers['x-api-limit-reset-timestamp']);
    if (reply.status === 429) {
      // No reset timestamp: a Retry-After in seconds, when the server sends one.
      const retryAfter = reset === undefined ? toNumber(reply.headers['retry-after']) : undefined;
      const resetAt = retryAfter === undefined ? reset : this.timeSync.serverNow() + retryAfter * 1000;
      const until = this.governor.onRateLimited(code === -1015 ? 'orders' : 'weight', resetAt);
      return err(new VenueError({ ...base, kind: 'rate-limited', code: code ?? -1003, message: msg ?? 'too many requests', retryAt: until }));
    }
    if (reply.status === 418) {
      this.governor.onBanned(reset);
      return err(new VenueError({ ...base, kind: 'banned', code: code ?? -1003, message: msg ?? 'IP banned', ...(reset === undefined ? {} : { retryAt: this.timeSync.serverToLocal(reset) }) }));
    }
    if (reply.status >= 500) {
      return err(new VenueError({ ...base, kind: 'unknown-status', ...(code === undefined ? {} : { code }), message: msg ?? `server error; the request may or may not have taken effect` }));
    }
    if (!parsed) {
      const message = `reply is not JSON (${replyExcerpt(reply.body)})`;
      if (reply.status >= 400) return err(new VenueError({ ...base, kind: 'http', message }));
      return err(new VenueError({ ...base, kind: 'malformed-response', field: '(root)', message }));
    }
    if (code !== undefined && code !== 200 && code !== 0) {
      const kind = leavesStatusUnknown(code) ? 'unknown-status' : 'rejected';
      return err(new VenueError({ ...base, kind, code, message: msg ?? 'request failed' }));
    }
    if (reply.status >= 400) {
      return err(new VenueError({ ...base, kind: 'http', message: msg ?? `HTTP ${reply.status}` }));
    }
    // What is left: a v2 reply without its {code, msg, data} wrapper (interpret answered every other one).
    return err(new VenueError({ ...base, kind: 'malformed-response', field: 'code', message: 'expected the {code, msg, data} wrapper' }));
  }
}

/** A reply body that is no object carries no code and no message. */
const NO_CODE: { readonly code: undefined; readonly msg: undefined } = Object.freeze({ code: undefined, msg: undefined });

function readCode(body: unknown): { readonly code: number | undefined; readonly msg: string | undefined } {
  if (!isRecord(body)) return NO_CODE;
  const raw = body['code'];
  const code = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
  const rawMsg = body['msg'] ?? body['message'];
  return { code, msg: typeof rawMsg === 'string' ? redactSecretText(clip(rawMsg)) : undefined };
}

/** Longest service message kept in an error: an oversized one is cut (it ends up in logs). */
const MAX_MSG = 500;

function clip(text: string): string {
  return text.length <= MAX_MSG ? text : `${text.slice(0, MAX_MSG)}… (${text.length} characters)`;
}

function toNumber(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fillPath(path: string, params: Readonly<Record<string, string>> | undefined): string {
  if (!path.includes('{')) return path;
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new RangeError(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(value);
  });
}

/** Two encoded parameter strings as one (either may be empty). */
function joinParams(first: string, second: string): string {
  return first === '' ? second : second === '' ? first : `${first}&${second}`;
}

function withQuery(url: string, query: string): string {
  return query === '' ? url : `${url}?${query}`;
}
