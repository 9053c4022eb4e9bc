import type { Result } from '../../core/result.js';
import { ok } from '../../core/result.js';
import { callParsed } from '../call-parsed.js';
import { ENDPOINTS } from '../endpoints.js';
import { accountIdentitySchema } from '../parsers/account-identity.js';
import type { RestCaller } from '../rest-transport.js';
import type { VenueError } from '../venue-error.js';

/**
 * The exchange's user id of the account the API key belongs to (GET /api/v1/account `userId`,
 * API-NOTES §4.3): the fingerprint a state directory is bound to.
 */
export async function accountUserId(rest: RestCaller): Promise<Result<string, VenueError>> {
  const reply = await callParsed(rest, { endpoint: ENDPOINTS.spotAccount }, accountIdentitySchema);
  return reply.ok ? ok(reply.value.userId) : reply;
}
