import { ENDPOINTS } from '../../venue/endpoints.js';
import type { SimVenue } from '../engine/sim-venue.js';
import type { SimRoute } from '../server/route-types.js';
import { routeOk } from '../server/route-types.js';
import { accountOf } from './route-context.js';

/**
 * GET /api/v1/account (API-NOTES §4.3): the caller's user id and spot balances. Rows carry `asset`,
 * `assetId`, `assetName` and `coin` (the RULE: live shows the first three, the change log the last).
 */
export function spotAccountRoute(venue: SimVenue): SimRoute {
  return {
    endpoint: ENDPOINTS.spotAccount,
    handle: (ctx) => {
      const { userId } = accountOf(ctx);
      const balances = venue.spotBalances(userId).map((b) => ({ asset: b.coin, assetId: b.coin, assetName: b.coin, coin: b.coin, total: b.total, free: b.free, locked: b.locked }));
      return routeOk({ userId, balances });
    },
  };
}
