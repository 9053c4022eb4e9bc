import { err, ok } from '../../core/result.js';
import type { EndpointName } from '../../protocol/endpoints.js';
import type { RouteContext, RouteReply } from '../server/routing/types.js';
import { routeOk } from '../server/routing/types.js';
import type { KlineInterval } from './klines/intervals.js';
import type { MarketHandler } from './route-handler.js';
import { intParam, intParamOf, intervalParam, limitParam, publicErrors, requiredText } from './route-params.js';
import type { LimitRule, Read } from './route-params.js';

/** Book, trades and candles (document 001 Endpoints; quote-service codes). */

const DEPTH_DEFAULT = 100;
const DEPTH_MAX = 1000;
const MERGED_LIMIT: LimitRule = { default: 100, min: 1, max: DEPTH_MAX };
const MAX_SCALE = 5;
const TRADES_LIMIT: LimitRule = { default: 60, min: 1, max: 60 };
const KLINES_LIMIT: LimitRule = { default: 1000, min: 1, max: 1000 };
const PRICE_KLINES_LIMIT: LimitRule = { default: 2000, min: 1, max: 2000 };

/** Depth `limit`: default 100; 0 asks for the whole book ("a large amount"), as do values above it; negative is -1130. */
export function depthLimit(params: RouteContext['params']): Read<number> {
  const limit = intParam(params, 'limit');
  if (!limit.ok) return limit;
  if (limit.value === undefined) return ok(DEPTH_DEFAULT);
  if (limit.value < 0) return err(publicErrors.invalid('limit'));
  return ok(limit.value > DEPTH_MAX ? 0 : limit.value);
}

const depth: MarketHandler = (service, ctx) => {
  const symbol = requiredText(ctx.params, 'symbol', 'quote');
  if (!symbol.ok) return symbol.error;
  const limit = depthLimit(ctx.params);
  if (!limit.ok) return limit.error;
  const book = service.depth(symbol.value, limit.value, ctx.now);
  return book === undefined ? publicErrors.unknownSymbol('quote') : routeOk(book);
};

const depthMerged: MarketHandler = (service, ctx) => {
  const symbol = requiredText(ctx.params, 'symbol', 'quote');
  if (!symbol.ok) return symbol.error;
  const scale = intParam(ctx.params, 'scale');
  if (!scale.ok) return scale.error;
  if (scale.value !== undefined && (scale.value < 0 || scale.value > MAX_SCALE)) return publicErrors.invalid('scale');
  const limit = limitParam(ctx.params, MERGED_LIMIT);
  if (!limit.ok) return limit.error;
  const book = service.mergedDepth(symbol.value, scale.value ?? 0, limit.value, ctx.now);
  return book === undefined ? publicErrors.unknownSymbol('quote') : routeOk(book);
};

const trades: MarketHandler = (service, ctx) => {
  const symbol = requiredText(ctx.params, 'symbol', 'quote');
  if (!symbol.ok) return symbol.error;
  const limit = limitParam(ctx.params, TRADES_LIMIT);
  if (!limit.ok) return limit.error;
  const rows = service.trades(symbol.value, limit.value);
  return rows === undefined ? publicErrors.unknownSymbol('quote') : routeOk(rows);
};

interface CandleQuery {
  readonly symbol: string;
  readonly interval: KlineInterval;
  readonly start: number | undefined;
  readonly end: number | undefined;
  readonly limit: number;
}

/** symbol, interval, start and end under the given names (first present alias wins), limit. */
function candleQuery(ctx: RouteContext, startNames: readonly string[], endNames: readonly string[], rule: LimitRule): CandleQuery | RouteReply {
  const symbol = requiredText(ctx.params, 'symbol', 'quote');
  if (!symbol.ok) return symbol.error;
  const interval = intervalParam(ctx.params, 'quote');
  if (!interval.ok) return interval.error;
  const start = intParamOf(ctx.params, startNames);
  if (!start.ok) return start.error;
  const end = intParamOf(ctx.params, endNames);
  if (!end.ok) return end.error;
  const limit = limitParam(ctx.params, rule);
  if (!limit.ok) return limit.error;
  return { symbol: symbol.value, interval: interval.value, start: start.value, end: end.value, limit: limit.value };
}

function isReply(value: CandleQuery | RouteReply): value is RouteReply {
  return 'kind' in value;
}

/** Without startTime and endTime only the latest kline is returned (document 001). */
const klines: MarketHandler = (service, ctx) => {
  const q = candleQuery(ctx, ['startTime'], ['endTime'], KLINES_LIMIT);
  if (isReply(q)) return q;
  const rows = service.klines(q.symbol, q.interval, q.start, q.end, q.limit);
  return rows === undefined ? publicErrors.unknownSymbol('quote') : routeOk(rows);
};

/**
 * Index and mark-price klines: `from` and `to` are required (document 001); a request without either is
 * refused -100012 naming it. JKorf and ccxt send startTime/endTime instead, so those count as aliases.
 */
function priceCandleQuery(ctx: RouteContext): CandleQuery | RouteReply {
  const q = candleQuery(ctx, ['from', 'startTime'], ['to', 'endTime'], PRICE_KLINES_LIMIT);
  if (isReply(q)) return q;
  if (q.start === undefined) return publicErrors.missing('quote', 'from', 'Long');
  if (q.end === undefined) return publicErrors.missing('quote', 'to', 'Long');
  return q;
}

const indexKlines: MarketHandler = (service, ctx) => {
  const q = priceCandleQuery(ctx);
  if (isReply(q)) return q;
  const rows = service.indexKlines(q.symbol, q.interval, q.start, q.end, q.limit, ctx.now);
  return rows === undefined ? publicErrors.unknownSymbol('quote') : routeOk({ code: 200, data: rows });
};

const markPriceKlines: MarketHandler = (service, ctx) => {
  const q = priceCandleQuery(ctx);
  if (isReply(q)) return q;
  const rows = service.markKlines(q.symbol, q.interval, q.start, q.end, q.limit);
  return rows === undefined ? publicErrors.unknownSymbol('quote') : routeOk({ code: 200, data: rows });
};

export const BOOK_HANDLERS: Partial<Record<EndpointName, MarketHandler>> = {
  depth,
  depthMerged,
  trades,
  klines,
  indexKlines,
  markPriceKlines,
};
