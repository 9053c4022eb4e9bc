import { err, ok } from '../../../core/result.js';
import type { EndpointName } from '../../../protocol/endpoints.js';
import { realtimeInterval } from '../../../protocol/market-params.js';
import type { RouteContext, RouteReply } from '../../server/routing/types.js';
import { routeOk } from '../../server/routing/types.js';
import type { MarketDataService } from '../market-data-service.js';
import type { MarketHandler } from '../route-handler.js';
import { publicErrors, textParam } from '../route-params.js';
import type { Read } from '../route-params.js';
import type { RealtimeInterval } from './window.js';

/**
 * Tickers (document 001; API-NOTES §5.5). Every route answers an array, one row with a symbol. The
 * contract routes know contract symbols; the spot routes know the spot symbols (index tokens) and,
 * as live, contract symbols too.
 */

function windowParam(ctx: RouteContext): Read<RealtimeInterval> {
  const text = textParam(ctx.params, 'realtimeInterval');
  if (text === undefined) return ok('24h');
  const parsed = realtimeInterval.safeParse(text);
  return parsed.success ? ok(parsed.data) : err(publicErrors.invalid('realtimeInterval'));
}

/** One row for `symbol` (unknown: -100011), or all rows without one. */
function rowsFor<T>(ctx: RouteContext, one: (symbol: string) => T | undefined, all: () => readonly T[]): RouteReply {
  const symbol = textParam(ctx.params, 'symbol');
  if (symbol === undefined) return routeOk(all());
  const row = one(symbol);
  return row === undefined ? publicErrors.unknownSymbol('quote') : routeOk([row]);
}

const contractOnly =
  <T>(service: MarketDataService, one: (symbol: string) => T | undefined) =>
  (symbol: string): T | undefined =>
    service.isContract(symbol) ? one(symbol) : undefined;

const contractTicker24h: MarketHandler = (service, ctx) => {
  const window = windowParam(ctx);
  if (!window.ok) return window.error;
  return rowsFor(
    ctx,
    contractOnly(service, (s) => service.ticker24h(s, window.value, ctx.now)),
    () => service.contractTickers24h(window.value, ctx.now),
  );
};

const contractTickerPrice: MarketHandler = (service, ctx) =>
  rowsFor(
    ctx,
    contractOnly(service, (s) => service.priceTicker(s)),
    () => service.contractPriceTickers(),
  );

const contractBookTicker: MarketHandler = (service, ctx) =>
  rowsFor(
    ctx,
    contractOnly(service, (s) => service.bookTicker(s, ctx.now)),
    () => service.contractBookTickers(ctx.now),
  );

const spotTicker24h: MarketHandler = (service, ctx) => {
  const window = windowParam(ctx);
  if (!window.ok) return window.error;
  return rowsFor(
    ctx,
    (s) => service.ticker24h(s, window.value, ctx.now),
    () => service.allTickers24h(window.value, ctx.now),
  );
};

const spotTickerPrice: MarketHandler = (service, ctx) =>
  rowsFor(
    ctx,
    (s) => service.priceTicker(s),
    () => service.allPriceTickers(),
  );

const spotBookTicker: MarketHandler = (service, ctx) =>
  rowsFor(
    ctx,
    (s) => service.bookTicker(s, ctx.now),
    () => service.allBookTickers(ctx.now),
  );

export const TICKER_HANDLERS: Partial<Record<EndpointName, MarketHandler>> = {
  contractTicker24h,
  contractTickerPrice,
  contractBookTicker,
  spotTicker24h,
  spotTickerPrice,
  spotBookTicker,
};
