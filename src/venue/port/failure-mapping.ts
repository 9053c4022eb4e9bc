import { assertNever } from '../../core/errors.js';
import type { ExchangeFailure } from '../../model/exchange-port.js';
import { VenueError } from '../venue-error.js';

/** Whether the call could have changed state on the exchange (a malformed reply to it then means "unknown"). */
export type CallKind = 'read' | 'write';

const NO_SUCH_ORDER = -2013;
const STATUS_UNKNOWN_CODES: ReadonlySet<number> = new Set([-1006, -1007]);
const THROTTLE_CODES: ReadonlySet<number> = new Set([-1003, -1015]);

/** -2013: the order (or plan row) does not exist. */
export function isNotFound(error: VenueError): boolean {
  return error.kind === 'rejected' && Number(error.code) === NO_SUCH_ORDER;
}

/** A venue error as the kernel's ExchangeFailure (see ExchangeFailureKind for the meaning of each kind). */
export function toExchangeFailure(error: VenueError, call: CallKind): ExchangeFailure {
  const message = error.message;
  const code = (fallback: string): string => (error.code === undefined ? fallback : String(error.code));
  switch (error.kind) {
    case 'rejected':
      if (isNotFound(error)) return { kind: 'not-found', code: code('not-found'), message, retryable: false };
      return { kind: 'rejected', code: code('rejected'), message, retryable: error.retryable };
    case 'unknown-status':
      return { kind: 'unknown', code: code('unknown'), message, retryable: true };
    case 'rate-limited':
    case 'banned':
      return {
        kind: 'throttled',
        code: code('throttled'),
        message,
        retryable: error.kind === 'rate-limited' || error.retryAt !== undefined,
        ...(error.retryAt === undefined ? {} : { retryAt: error.retryAt }),
      };
    case 'malformed-response':
      // A write may have taken effect even though its reply could not be read.
      return call === 'write' ? { kind: 'unknown', code: 'unknown', message, retryable: true } : { kind: 'invalid', code: 'invalid', message, retryable: false };
    case 'invalid-request':
    case 'http':
      return { kind: 'invalid', code: 'invalid', message, retryable: false };
    default:
      return assertNever(error.kind, 'venue error kind');
  }
}

const MAX_LEG_MSG = 500;

/** The failure of one batch leg, from its own code and message. */
export function legFailure(endpoint: string, code: number, msg: string | undefined): ExchangeFailure {
  // The leg's own message, cut like the transport cuts a reply's (an oversized one ends up in logs).
  const message = msg === undefined ? 'batch leg failed' : msg.length <= MAX_LEG_MSG ? msg : `${msg.slice(0, MAX_LEG_MSG)}… (${msg.length} characters)`;
  const kind = STATUS_UNKNOWN_CODES.has(code) ? 'unknown-status' : THROTTLE_CODES.has(code) ? 'rate-limited' : 'rejected';
  return toExchangeFailure(new VenueError({ kind, endpoint, code, message }), 'write');
}

/** A reply the adapter could not turn into a snapshot: the write may have happened; a read is unusable. */
export function mappingFailure(problem: string, call: CallKind): ExchangeFailure {
  return call === 'write'
    ? { kind: 'unknown', code: 'unknown', message: `unreadable reply: ${problem}`, retryable: true }
    : { kind: 'invalid', code: 'invalid', message: `unreadable reply: ${problem}`, retryable: false };
}

/** Refused locally: nothing was sent. */
export function localFailure(message: string): ExchangeFailure {
  return { kind: 'invalid', code: 'invalid', message, retryable: false };
}
