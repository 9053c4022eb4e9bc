import type { EndpointDef } from '../../../protocol/endpoints.js';

/**
 * The contract between the simulator's HTTP face (server/) and the handlers of each endpoint group
 * (trading routes, market data, user stream keys, follower, catalog). The server owns transport,
 * authentication, signatures, timestamps, permissions, rate limits, faults and envelopes; a route owns
 * the meaning of its parameters and the shape of its `data`.
 */

/** Which account family a key belongs to (document 001: follower endpoints need COPY_TRADING keys). */
export type KeyAccountType = 'FUTURES' | 'COPY_TRADING';

/** The authenticated caller of a signed endpoint. */
export interface Caller {
  readonly apiKey: string;
  /** The user the key belongs to (a parent or a sub-user). */
  readonly userId: string;
  readonly readOnly: boolean;
  readonly accountType: KeyAccountType;
}

/**
 * Decoded request parameters: query and form body merged, the query winning on duplicates
 * (API-NOTES §1.1), `signature` removed. Values are the decoded text exactly as sent.
 */
export interface RequestParams {
  get(name: string): string | undefined;
  has(name: string): boolean;
  names(): readonly string[];
}

export interface RouteContext {
  /** Server time of the request in epoch ms (faults such as clock skew already applied). */
  readonly now: number;
  readonly params: RequestParams;
  /** The parsed JSON body (v2 POST/PUT, batch arrays), or undefined when the body is not JSON. */
  readonly json: unknown;
  /** Path parameters such as `{leaderUserId}`. */
  readonly pathParams: Readonly<Record<string, string>>;
  /** Present on signed endpoints (USER_DATA, TRADE, USER_STREAM); undefined on public ones. */
  readonly caller: Caller | undefined;
  /** `category` resolved: USDT unless `category=USDC` was sent. */
  readonly category: 'USDT' | 'USDC';
}

/** A successful reply: `data` goes in the v2 wrapper, or is the whole body on v1 routes. */
export interface RouteOk {
  readonly kind: 'ok';
  readonly data: unknown;
}

/** An exchange error: `{code, msg}` (bare on v1, wrapper on v2); HTTP status per API-NOTES §3. */
export interface RouteError {
  readonly kind: 'error';
  readonly code: number;
  readonly msg: string;
  readonly status?: number;
}

/** A reply whose body is already final (catalog envelopes, empty markPrice quirk). */
export interface RouteRaw {
  readonly kind: 'raw';
  readonly status: number;
  readonly body: string;
  readonly contentType?: string;
}

export type RouteReply = RouteOk | RouteError | RouteRaw;

export interface SimRoute {
  readonly endpoint: EndpointDef;
  /** Weight for this particular request when it depends on parameters (depth limit, ticker symbol). */
  readonly weightOf?: (params: RequestParams) => number;
  /** ORDERS budget units this request spends (batch legs each count); default 1 when endpoint.ordersBudget. */
  readonly ordersOf?: (ctx: { readonly json: unknown }) => number;
  /** When set, the route may only be called with a key of this account type (follower routes). */
  readonly requiresAccountType?: KeyAccountType;
  /**
   * Accept the batch signing variants, HMAC of body + query and of the query alone, besides query +
   * body (API-NOTES §1.2). Default: true for POST v1 `batchOrders` and POST v2 `batch-orders`.
   */
  readonly batchSigning?: boolean;
  readonly handle: (ctx: RouteContext) => RouteReply | Promise<RouteReply>;
}

export function routeOk(data: unknown): RouteOk {
  return { kind: 'ok', data };
}

export function routeError(code: number, msg: string, status?: number): RouteError {
  return status === undefined ? { kind: 'error', code, msg } : { kind: 'error', code, msg, status };
}

// ---- Raw sub-applications mounted under a path prefix (the catalog service at `/catalog`).

/** A request as a prefix-mounted sub-application sees it: no exchange auth, limits or envelopes. */
export interface PrefixRequest {
  readonly method: string;
  /** The path with the prefix cut off (`/v1/products`); `/` when nothing follows the prefix. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The raw body text (empty when none). */
  readonly body: string;
  /** Server time of the request in epoch ms (clock skew applied). */
  readonly now: number;
}

export interface PrefixReply {
  readonly status: number;
  readonly body: string;
  /** Extra headers; `content-type` defaults to application/json. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Answers a prefix request, or undefined for "no such path" (the server then answers 404). */
export type PrefixHandleFn = (request: PrefixRequest) => PrefixReply | undefined | Promise<PrefixReply | undefined>;

export type PrefixHandler = { readonly handle: PrefixHandleFn } | PrefixHandleFn;
