import type { TimeSource } from '../../src/core/clock.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { ExchangeClient } from '../../src/venue/exchange-client.js';
import type { HttpPort, HttpReply, HttpRequest } from '../../src/venue/http-port.js';
import { VenueError } from '../../src/venue/venue-error.js';
import type { VenueErrorKind } from '../../src/venue/venue-error.js';
import { MAX_MESSAGE_LENGTH } from './bad-input-support.js';

/** An HttpPort in memory: each request is answered by `answer` (no sockets, so a property can run thousands of calls). */
export class ScriptedHttp implements HttpPort {
  readonly requests: HttpRequest[] = [];

  constructor(private readonly answer: (request: HttpRequest) => HttpReply) {}

  send(request: HttpRequest): Promise<HttpReply> {
    this.requests.push(request);
    return Promise.resolve(this.answer(request));
  }
}

/**
 * A signed client over `http` on virtual time (default: a fresh clock), with a rate budget no burst of
 * the tests reaches. One per case: 429 and 418 replies pause or halt it.
 */
export function scriptedClient(http: HttpPort, time: TimeSource = new VirtualClock()): ExchangeClient {
  return new ExchangeClient({
    baseUrl: 'http://venue.invalid',
    credentials: { apiKey: 'hardening-key', apiSecret: 'hardening-secret' },
    time,
    http,
    rateBudget: { weightLimit: 1e9, ordersLimit: 1e9 },
    timeSync: { samples: 1 },
  });
}

/** The path of a request URL, without the query. */
export function pathOf(request: HttpRequest): string {
  return new URL(request.url).pathname;
}

export const VENUE_ERROR_KINDS: readonly VenueErrorKind[] = ['invalid-request', 'rejected', 'rate-limited', 'banned', 'unknown-status', 'malformed-response', 'http'];

/** Why `error` is not a proper VenueError value, or undefined when it is one. */
export function venueErrorProblem(error: unknown): string | undefined {
  if (!(error instanceof VenueError)) return `not a VenueError: ${String(error)}`;
  if (!VENUE_ERROR_KINDS.includes(error.kind)) return `unknown kind ${error.kind}`;
  if (typeof error.message !== 'string' || error.message.length > MAX_MESSAGE_LENGTH) return `message of ${error.message.length} characters`;
  if (error.kind === 'malformed-response' && (typeof error.field !== 'string' || error.field === '')) return 'malformed-response without a field';
  if (typeof error.retryable !== 'boolean') return 'retryable is not a boolean';
  return undefined;
}

/** The v2 envelope. */
export function v2(data: unknown): { code: number; msg: string; data: unknown } {
  return { code: 200, msg: 'success', data };
}

/** Reply statuses a broken server or proxy may answer with. */
export const STATUSES: readonly number[] = [200, 200, 200, 201, 204, 301, 400, 401, 403, 404, 408, 413, 418, 429, 500, 502, 503, 504, 599, 100, 0, 999];

/** Virtual time a call may take (a 429 pauses the client until its reset, at most a rate window away, or a minute). */
const CALL_DEADLINE_MS = 60 * 60_000;

/**
 * The outcome of `call` on `clock`, letting virtual time pass while it waits (a 429 pauses the client):
 * fails when the call has not completed after an hour of virtual time (a client halted by one reply).
 */
export async function completes<T>(clock: VirtualClock, call: () => Promise<T>): Promise<T> {
  let outcome: { readonly value: T } | undefined;
  let failure: { readonly error: unknown } | undefined;
  call().then(
    (value) => (outcome = { value }),
    (error: unknown) => (failure = { error }),
  );
  const deadline = clock.now() + CALL_DEADLINE_MS;
  for (;;) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (failure !== undefined) throw failure.error;
    if (outcome !== undefined) return outcome.value;
    if (clock.now() >= deadline) throw new Error('the call did not complete within an hour of virtual time');
    clock.advanceBy(10_000);
  }
}
