import { orderedParams } from '../../core/ordered-params.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { callParsed } from '../call-parsed.js';
import { ENDPOINTS } from '../../protocol/endpoints.js';
import type { EndpointDef } from '../../protocol/endpoints.js';
import { emptyObject, listenKeySchema } from '../parsers/user-stream.js';
import type { RestTransport } from '../rest-transport.js';
import { requireText } from '../validate.js';
import type { VenueError } from '../venue-error.js';
import type { Category } from '../../protocol/wire-enums.js';
import { knownSecrets } from '../../core/secret-text.js';

/**
 * Listen-key lifecycle of the user data stream (document 001). USER_STREAM endpoints: signed by the
 * transport; parameters travel in the query. A key lives 60 minutes; POST while one is active returns
 * the same key, extended. USDC-M needs its own key (`category=USDC`).
 */
export class UserStreamApi {
  constructor(private readonly rest: RestTransport) {}

  /** POST /api/v1/listenKey: the account's listen key. */
  async createListenKey(category?: Category): Promise<Result<string, VenueError>> {
    const reply = await callParsed(this.rest, { endpoint: ENDPOINTS.listenKeyCreate, query: orderedParams({ category }) }, listenKeySchema);
    if (!reply.ok) return reply;
    // A listen key is a bearer credential for the account's stream: never printed from here on.
    knownSecrets.add(reply.value.listenKey, true);
    return ok(reply.value.listenKey);
  }

  /** PUT /api/v1/listenKey: extends the key by 60 minutes. */
  keepAliveListenKey(listenKey: string, category?: Category): Promise<Result<void, VenueError>> {
    return this.withKey(ENDPOINTS.listenKeyKeepalive, listenKey, category);
  }

  /** DELETE /api/v1/listenKey: closes the stream; the key becomes invalid. */
  closeListenKey(listenKey: string, category?: Category): Promise<Result<void, VenueError>> {
    return this.withKey(ENDPOINTS.listenKeyClose, listenKey, category);
  }

  private async withKey(e: EndpointDef, listenKey: string, category: Category | undefined): Promise<Result<void, VenueError>> {
    const problem = requireText(e, 'listenKey', listenKey);
    if (problem !== undefined) return err(problem);
    const reply = await callParsed(this.rest, { endpoint: e, query: orderedParams({ listenKey, category }) }, emptyObject);
    return reply.ok ? ok(undefined) : reply;
  }
}
