import { timingSafeEqual } from 'node:crypto';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { EndpointDef } from '../../protocol/endpoints.js';
import { signText } from '../../protocol/signer.js';
import { serverErrors } from './exchange-errors.js';
import type { Keyring } from './keyring.js';
import type { Caller, KeyAccountType, RequestParams, RouteError } from './routing/types.js';
import type { SignatureParts } from './signature-parts.js';
import { signedTextCandidates } from './signature-parts.js';
import { checkTimestamp } from './timestamp-window.js';

export interface AuthRequest {
  readonly endpoint: EndpointDef;
  readonly requiresAccountType: KeyAccountType | undefined;
  /** Whether the batch signing variants are accepted (body + query, query alone). */
  readonly batchSigning: boolean;
  /** The `X-BB-APIKEY` header. */
  readonly apiKey: string | undefined;
  readonly parts: SignatureParts;
  readonly params: RequestParams;
  /** Server time. */
  readonly now: number;
}

const LOWER_HEX_64 = /^[0-9a-f]{64}$/;

/**
 * Authenticates a call to a signed endpoint (API-NOTES §1.2–§1.4): key header (-1107), known key
 * (-2015), signature present (-1102) and equal to a lowercase-hex HMAC of an accepted text (-1022),
 * timestamp within the window (-1102/-1130/-1021), account type (-2015 naming it), read-only key on a
 * write route (-1020). USER_STREAM calls without a signature pass on the key alone.
 */
export function authenticate(request: AuthRequest, keyring: Keyring): Result<Caller, RouteError> {
  const { endpoint, parts } = request;
  if (request.apiKey === undefined || request.apiKey.trim() === '') return err(serverErrors.apiKeyEmpty());
  const key = keyring.find(request.apiKey);
  if (key === undefined) return err(serverErrors.rejectedKey());
  const keyAlone = parts.signature === undefined && endpoint.security === 'USER_STREAM';
  if (!keyAlone) {
    if (parts.signature === undefined) return err(serverErrors.mandatoryParam('signature'));
    if (!signatureMatches(key.secret, parts, request.batchSigning)) return err(serverErrors.badSignature());
    const timing = checkTimestamp(request.params, request.now);
    if (timing !== undefined) return err(timing);
  }
  if (request.requiresAccountType !== undefined && key.caller.accountType !== request.requiresAccountType) {
    return err(serverErrors.rejectedKey(request.requiresAccountType));
  }
  if (endpoint.write && key.caller.readOnly) return err(serverErrors.unsupportedOperation());
  return ok(key.caller);
}

/** True when the signature is the lowercase hex HMAC-SHA256 of one of the accepted texts; uppercase never matches. */
export function signatureMatches(secret: string, parts: SignatureParts, batchSigning: boolean): boolean {
  const sent = parts.signature;
  if (sent === undefined || !LOWER_HEX_64.test(sent)) return false;
  const sentBytes = Buffer.from(sent, 'ascii');
  return signedTextCandidates(parts, batchSigning).some((text) => timingSafeEqual(Buffer.from(signText(secret, text), 'ascii'), sentBytes));
}
