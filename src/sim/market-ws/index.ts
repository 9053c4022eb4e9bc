export { MARKET_WS_PATH, MarketWsServer } from './market-ws-server.js';
export type { MarketWsServerOptions } from './market-ws-server.js';
