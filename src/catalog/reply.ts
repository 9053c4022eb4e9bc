import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { HttpReply } from '../venue/http-port.js';
import { VenueError } from '../venue/venue-error.js';
import { parseWire } from '../venue/wire/schema.js';
import { parseCatalogJson } from '../protocol/catalog/json.js';
import { failureEnvelope } from './schemas.js';
import { replyExcerpt } from '../core/secret-text.js';

/**
 * Turns one HTTP reply into the parsed JSON body of a success, or a VenueError:
 * - a failure envelope → `rejected` with code = error.code and field = error.field (any 2xx/4xx);
 * - 5xx → `unknown-status` (retryable: the write may or may not have happened);
 * - 401/403 → `rejected`; 429 → `rate-limited`;
 * - another non-2xx without a failure envelope → `http` (a `success:false` body of the wrong shape
 *   → `malformed-response` naming the field);
 * - a 2xx that is not JSON → `malformed-response` (field "(root)"). The success envelope itself is
 *   checked by the caller's schema.
 */
export function interpretCatalogReply(label: string, reply: HttpReply): Result<unknown, VenueError> {
  const base = { endpoint: label, httpStatus: reply.status };
  let body: unknown;
  let isJson = true;
  try {
    body = parseCatalogJson(reply.body);
  } catch {
    isJson = false;
  }
  const failure = isJson ? failureEnvelope.safeParse(body) : undefined;
  if (failure?.success === true) {
    const { code, message, field } = failure.data.error;
    const kind = reply.status >= 500 ? 'unknown-status' : 'rejected';
    return err(new VenueError({ ...base, kind, code, message, ...(field === undefined ? {} : { field }) }));
  }
  if (reply.status >= 500) {
    return err(new VenueError({ ...base, kind: 'unknown-status', message: 'server error; the request may or may not have taken effect' }));
  }
  if (reply.status === 401 || reply.status === 403) {
    return err(new VenueError({ ...base, kind: 'rejected', message: 'authentication failed (check the API token)' }));
  }
  if (reply.status === 429) {
    return err(new VenueError({ ...base, kind: 'rate-limited', message: 'too many requests' }));
  }
  if (isJson && isRecord(body) && body['success'] === false) {
    const bad = parseWire(failureEnvelope, body, label);
    if (!bad.ok) {
      const field = bad.error.field ?? '(root)';
      return err(new VenueError({ ...base, kind: 'malformed-response', field, message: 'failure envelope of the wrong shape' }));
    }
  }
  if (reply.status < 200 || reply.status >= 300) {
    return err(new VenueError({ ...base, kind: 'http', message: `HTTP ${reply.status}: ${replyExcerpt(reply.body)}` }));
  }
  if (!isJson) {
    return err(new VenueError({ ...base, kind: 'malformed-response', field: '(root)', message: `reply is not JSON (${replyExcerpt(reply.body)})` }));
  }
  return ok(body);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
