import type { ExchangeFailure } from '../../model/exchange-port.js';
import type { SimReject } from '../engine/types.js';

/** The engine's "order does not exist" code (API-NOTES §3). */
export const UNKNOWN_ORDER_CODE = -2013;

/**
 * An engine refusal as the kernel sees it: the request had no effect (`rejected`), or it named an order
 * the exchange does not know (`not-found`). Codes travel as text, like the live adapter's.
 */
export function failureOf(reject: SimReject): ExchangeFailure {
  const kind = reject.code === UNKNOWN_ORDER_CODE ? 'not-found' : 'rejected';
  return { kind, code: String(reject.code), message: reject.msg, retryable: false };
}

/** Refused by the port itself before the engine saw it (a caller bug): nothing was done. */
export function invalidRequest(message: string): ExchangeFailure {
  return { kind: 'invalid', code: 'invalid', message, retryable: false };
}
