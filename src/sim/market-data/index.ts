/** The simulated exchange's public market-data face: state built from the market stream and the public routes. */
export type { MarketDataOptions } from './market-data-service.js';
export { MarketDataService } from './market-data-service.js';
export { marketDataRoutes, publicEndpointNames, signedMarketDataRoutes } from './market-data-routes.js';
export { exchangeInfoBody, exchangeInfoReply, filterRows, EXCHANGE_ID, RATE_LIMITS } from './exchange-info.js';
export type { ExchangeInfoBody } from './exchange-info.js';
export { indexTokenOf } from './index-tokens.js';
export { bucketOf, KLINE_INTERVALS } from './klines/intervals.js';
export type { Bucket, KlineInterval } from './klines/intervals.js';
export { riskLimitRows } from './risk-limits.js';
export { windowStart } from './ticker/window.js';
export type * from './wire-rows.js';
