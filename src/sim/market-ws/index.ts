export { MARKET_WS_PATH, MarketWsServer } from './server.js';
export type { MarketWsServerOptions } from './server.js';
