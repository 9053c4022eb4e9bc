import { invariant } from '../../core/errors.js';
import type { EndpointDef, EndpointName } from '../../protocol/endpoints.js';
import { depthWeight, ENDPOINTS, tickerWeight } from '../../protocol/endpoints.js';
import type { RequestParams, SimRoute } from '../server/routing/types.js';
import { routeOk } from '../server/routing/types.js';
import { BOOK_HANDLERS, depthLimit } from './book-routes.js';
import type { MarketDataService } from './market-data-service.js';
import { REFERENCE_HANDLERS } from './reference-routes.js';
import type { MarketHandler } from './route-handler.js';
import { textParam } from './route-params.js';
import { TICKER_HANDLERS } from './ticker/routes.js';

const HANDLERS: Partial<Record<EndpointName, MarketHandler>> = { ...REFERENCE_HANDLERS, ...BOOK_HANDLERS, ...TICKER_HANDLERS };

/** Weights that depend on the request: depth by limit, 24h tickers by symbol (document 001). */
const WEIGHTS: Partial<Record<EndpointName, (params: RequestParams) => number>> = {
  depth: (params) => {
    const limit = depthLimit(params);
    return depthWeight(limit.ok ? limit.value : undefined);
  },
  contractTicker24h: (params) => tickerWeight(textParam(params, 'symbol')),
  spotTicker24h: (params) => tickerWeight(textParam(params, 'symbol')),
};

/** The endpoints of the table whose security is NONE: public market data, ping and time. */
export function publicEndpointNames(): EndpointName[] {
  return (Object.entries(ENDPOINTS) as [EndpointName, EndpointDef][]).filter(([, e]) => e.security === 'NONE').map(([name]) => name);
}

/**
 * A route for every public endpoint, answering from `service`. v1 bare JSON: `routeOk(data)` is the
 * whole body; the index and mark-price kline routes carry their own `{code, data}`.
 */
export function marketDataRoutes(service: MarketDataService): SimRoute[] {
  return publicEndpointNames().map((name): SimRoute => {
    const handler = HANDLERS[name];
    invariant(handler !== undefined, 'MARKET_ROUTE_MISSING', `no market-data handler for public endpoint ${name}`);
    const weightOf = WEIGHTS[name];
    const endpoint = ENDPOINTS[name];
    const handle: SimRoute['handle'] = (ctx) => handler(service, ctx);
    return weightOf === undefined ? { endpoint, handle } : { endpoint, weightOf, handle };
  });
}

/** The signed variant of exchangeInfo (document 000 change history): the same reply, key and signature checked. */
export function signedMarketDataRoutes(service: MarketDataService): SimRoute[] {
  return [{ endpoint: ENDPOINTS.authExchangeInfo, handle: (ctx) => routeOk(service.exchangeInfo(ctx.now)) }];
}
