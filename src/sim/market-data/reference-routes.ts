import type { EndpointName } from '../../protocol/endpoints.js';
import { longShortPeriod } from '../../protocol/market-params.js';
import { routeOk } from '../server/routing/types.js';
import type { MarketHandler } from './route-handler.js';
import { idParam, intParam, limitParam, publicErrors, requiredText, textParam } from './route-params.js';
import type { LimitRule } from './route-params.js';

/**
 * Exchange reference data, mark/index prices, funding and the synthetic positioning figures
 * (document 001; unknown-symbol answers as live, API-NOTES §3 "Live quirks").
 */

const FUNDING_HISTORY_LIMIT: LimitRule = { default: 20, min: 1, max: 1000 };
const LONG_SHORT_LIMIT: LimitRule = { default: 30, min: 1, max: 500 };

const ping: MarketHandler = () => routeOk({});

/** `serverTime` is a number here (a string in exchangeInfo). */
const time: MarketHandler = (_service, ctx) => routeOk({ serverTime: ctx.now });

const exchangeInfo: MarketHandler = (service, ctx) => routeOk(service.exchangeInfo(ctx.now));

const riskLimits: MarketHandler = (service, ctx) => {
  const symbol = requiredText(ctx.params, 'symbol', 'api');
  if (!symbol.ok) return symbol.error;
  const rows = service.riskLimits(symbol.value);
  return rows === undefined ? publicErrors.unknownSymbol('api') : routeOk(rows);
};

/** One object with a symbol (unknown: 200 with an empty body, live), an array without. */
const markPrice: MarketHandler = (service, ctx) => {
  const symbol = textParam(ctx.params, 'symbol');
  if (symbol === undefined) return routeOk(service.markPrices(ctx.now));
  const row = service.markPrice(symbol, ctx.now);
  return row === undefined ? { kind: 'raw', status: 200, body: '' } : routeOk(row);
};

/** Unknown symbol: both maps empty, live. */
const index: MarketHandler = (service, ctx) => routeOk(service.indexPrices(textParam(ctx.params, 'symbol'), ctx.now));

/** Unknown index: `{}`, live. */
const indexPriceComponents: MarketHandler = (service, ctx) => {
  const symbol = requiredText(ctx.params, 'symbol', 'quote');
  if (!symbol.ok) return symbol.error;
  return routeOk(service.indexComponents(symbol.value, ctx.now) ?? {});
};

/** An array, one row with a symbol; unknown symbol: 400 -1130, live. */
const fundingRate: MarketHandler = (service, ctx) => {
  const symbol = textParam(ctx.params, 'symbol');
  if (symbol === undefined) return routeOk(service.fundingRates(ctx.now));
  const row = service.fundingRate(symbol, ctx.now);
  return row === undefined ? publicErrors.invalid('symbol') : routeOk([row]);
};

const historyFundingRate: MarketHandler = (service, ctx) => {
  const symbol = requiredText(ctx.params, 'symbol', 'api');
  if (!symbol.ok) return symbol.error;
  const fromId = idParam(ctx.params, 'fromId');
  if (!fromId.ok) return fromId.error;
  const endId = idParam(ctx.params, 'endId');
  if (!endId.ok) return endId.error;
  const limit = limitParam(ctx.params, FUNDING_HISTORY_LIMIT);
  if (!limit.ok) return limit.error;
  const rows = service.fundingHistory(symbol.value, fromId.value, endId.value, limit.value);
  return rows === undefined ? publicErrors.unknownSymbol('api') : routeOk(rows);
};

const openInterest: MarketHandler = (service, ctx) => {
  const symbol = requiredText(ctx.params, 'symbol', 'quote');
  if (!symbol.ok) return symbol.error;
  const reply = service.openInterest(symbol.value);
  return reply === undefined ? publicErrors.unknownSymbol('quote') : routeOk(reply);
};

const longShortRatio: MarketHandler = (service, ctx) => {
  const symbol = requiredText(ctx.params, 'symbol', 'quote');
  if (!symbol.ok) return symbol.error;
  const periodText = requiredText(ctx.params, 'period', 'quote');
  if (!periodText.ok) return periodText.error;
  const period = longShortPeriod.safeParse(periodText.value);
  if (!period.success) return publicErrors.invalid('period');
  const limit = limitParam(ctx.params, LONG_SHORT_LIMIT);
  if (!limit.ok) return limit.error;
  const start = intParam(ctx.params, 'startTime');
  if (!start.ok) return start.error;
  const end = intParam(ctx.params, 'endTime');
  if (!end.ok) return end.error;
  const rows = service.longShortRatio(symbol.value, period.data, start.value, end.value, limit.value, ctx.now);
  return rows === undefined ? publicErrors.unknownSymbol('quote') : routeOk(rows);
};

const insuranceFund: MarketHandler = (service, ctx) => {
  const symbol = requiredText(ctx.params, 'symbol', 'api');
  if (!symbol.ok) return symbol.error;
  const reply = service.insuranceFund(symbol.value, ctx.now);
  return reply === undefined ? publicErrors.unknownSymbol('api') : routeOk(reply);
};

export const REFERENCE_HANDLERS: Partial<Record<EndpointName, MarketHandler>> = {
  ping,
  time,
  exchangeInfo,
  riskLimits,
  markPrice,
  index,
  indexPriceComponents,
  fundingRate,
  historyFundingRate,
  openInterest,
  longShortRatio,
  insuranceFund,
};
