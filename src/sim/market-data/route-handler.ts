import type { RouteContext, RouteReply } from '../server/routing/types.js';
import type { MarketDataService } from './market-data-service.js';

/** One public endpoint's handler over the shared market-data service. */
export type MarketHandler = (service: MarketDataService, ctx: RouteContext) => RouteReply;
