import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { ENDPOINTS } from '../../protocol/endpoints.js';
import type { RestCaller } from '../rest-transport.js';
import { VenueError } from '../venue-error.js';
import { WalletApi } from './wallet.js';

/**
 * The exchange's user id of the account the API key belongs to (GET /api/v1/account `userId`,
 * API-NOTES §4.3): the fingerprint a state directory is bound to.
 */
export async function accountUserId(rest: RestCaller): Promise<Result<string, VenueError>> {
  const reply = await new WalletApi(rest).spotAccount();
  if (!reply.ok) return reply;
  if (reply.value.userId === undefined) return err(new VenueError({ kind: 'malformed-response', endpoint: ENDPOINTS.spotAccount.path, field: 'userId', message: 'no userId, which binds the state to its account' }));
  return ok(reply.value.userId);
}
