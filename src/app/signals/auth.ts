import { createHmac } from 'node:crypto';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { constantTimeEquals } from '../control/auth.js';

/** Hex HMAC-SHA256 of `<timestamp>.<body>` with the signal secret. */
export const SIGNATURE_HEADER = 'x-stratd-signature';
/** Epoch milliseconds when the sender signed; the signature covers it. */
export const TIMESTAMP_HEADER = 'x-stratd-timestamp';

/** The signature of a signal request: hex HMAC-SHA256 over the timestamp, a dot and the raw body. */
export function signSignal(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** What a request offers as proof: the signature headers, or a token in the URL or the body. */
export interface SignalProof {
  readonly signature?: string;
  readonly timestamp?: string;
  readonly urlToken?: string;
  readonly bodyToken?: string;
}

export type SignalAuthMode = 'signature' | 'token';

export interface SignalAuthFailure {
  readonly code: 'UNSIGNED' | 'BAD_SIGNATURE' | 'BAD_TIMESTAMP' | 'BAD_TOKEN' | 'TOKEN_DISABLED';
  readonly message: string;
}

/**
 * Checks a request's proof against the secret: a signature (over the timestamp header and the raw body)
 * when one is sent; else a token, only when `allowToken`. Answers the mode and, for a signature, the
 * signed timestamp (the token mode takes its timestamp from the body).
 */
export function authenticateSignal(proof: SignalProof, rawBody: string, secret: string, allowToken: boolean): Result<{ readonly mode: SignalAuthMode; readonly timestamp?: number }, SignalAuthFailure> {
  if (proof.signature !== undefined) {
    const timestamp = proof.timestamp?.trim() ?? '';
    if (!/^\d{1,16}$/.test(timestamp)) return err({ code: 'BAD_TIMESTAMP', message: `a signed signal needs ${TIMESTAMP_HEADER}: epoch milliseconds` });
    const expected = signSignal(secret, timestamp, rawBody);
    if (!constantTimeEquals(proof.signature.trim().toLowerCase(), expected)) {
      return err({ code: 'BAD_SIGNATURE', message: `${SIGNATURE_HEADER} is not the HMAC-SHA256 of "<timestamp>.<body>" with the signal secret` });
    }
    return ok({ mode: 'signature', timestamp: Number(timestamp) });
  }
  const token = proof.urlToken ?? proof.bodyToken;
  if (token === undefined) return err({ code: 'UNSIGNED', message: `unsigned: send ${SIGNATURE_HEADER} and ${TIMESTAMP_HEADER}` });
  if (!allowToken) return err({ code: 'TOKEN_DISABLED', message: 'tokens are not accepted here (signals.allowToken is off): sign the request' });
  if (!constantTimeEquals(token, secret)) return err({ code: 'BAD_TOKEN', message: 'wrong token' });
  return ok({ mode: 'token' });
}

/** Whether a sender's timestamp is within `windowMs` of `now`, either way. */
export function withinReplayWindow(timestamp: number, now: number, windowMs: number): boolean {
  return Number.isFinite(timestamp) && Math.abs(now - timestamp) <= windowMs;
}
