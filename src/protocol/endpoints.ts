/**
 * Every REST endpoint of the exchange the project knows: method, path, security, request weight and
 * whether it spends the ORDERS budget. One table serves the client, the rate governor, the simulator
 * and the README coverage table.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** NONE: public market data. USER_STREAM: listen key. Others are signed. */
export type Security = 'NONE' | 'USER_DATA' | 'TRADE' | 'USER_STREAM';

/** Response convention: v1 bare JSON, v2 `{code,msg,data}` wrapper. */
export type WireStyle = 'v1' | 'v2';

export interface EndpointDef {
  readonly method: HttpMethod;
  readonly path: string;
  readonly security: Security;
  readonly weight: number;
  /** Counts against the ORDERS budget (order placement and modification; each batch leg counts). */
  readonly ordersBudget: boolean;
  readonly wire: WireStyle;
  /** Writes state: refused for read-only keys. */
  readonly write: boolean;
  /** Where the endpoint is described; 'ccxt': in no document, only in third-party clients (ccxt's toobit). */
  readonly doc: '000' | '001' | 'API-NOTES' | 'ccxt';
  /** A JSON body that is sent but not signed (v1 batchOrders: the query alone is signed, API-NOTES §1.2). */
  readonly signsQueryOnly?: boolean;
}

function def(
  method: HttpMethod,
  path: string,
  security: Security,
  weight: number,
  doc: EndpointDef['doc'],
  extra: Partial<Pick<EndpointDef, 'ordersBudget' | 'wire' | 'write' | 'signsQueryOnly'>> = {},
): EndpointDef {
  return {
    method,
    path,
    security,
    weight,
    doc,
    ordersBudget: extra.ordersBudget ?? false,
    wire: extra.wire ?? (path.startsWith('/api/v2/') ? 'v2' : 'v1'),
    write: extra.write ?? method !== 'GET',
    ...(extra.signsQueryOnly === true ? { signsQueryOnly: true } : {}),
  };
}

const ORDER = { ordersBudget: true } as const;
/** Listen keys only open a read-only stream: read-only keys may manage them. */
const READS = { write: false } as const;

export const ENDPOINTS = {
  // ---- 000: sub-accounts, funds, margin, leverage (v1)
  subAccountList: def('GET', '/api/v1/subAccount/list', 'USER_DATA', 5, '000'),
  subAccountTransfer: def('POST', '/api/v1/subAccount/transfer', 'USER_DATA', 1, '000'),
  accountBalanceFlow: def('GET', '/api/v1/account/balanceFlow', 'USER_DATA', 5, '000'),
  futuresBalanceFlow: def('GET', '/api/v1/futures/balanceFlow', 'USER_DATA', 5, '000'),
  balanceFlowV2: def('GET', '/api/v2/account/balance-flow', 'USER_DATA', 5, '000'),
  marginType: def('POST', '/api/v1/futures/marginType', 'TRADE', 1, '000'),
  leverage: def('POST', '/api/v1/futures/leverage', 'TRADE', 1, '000'),
  accountLeverage: def('GET', '/api/v1/futures/accountLeverage', 'USER_DATA', 5, '000'),
  // ---- 000: orders v1
  orderV1Create: def('POST', '/api/v1/futures/order', 'TRADE', 1, '000', ORDER),
  orderV1Get: def('GET', '/api/v1/futures/order', 'USER_DATA', 1, '000'),
  batchOrdersV1: def('POST', '/api/v1/futures/batchOrders', 'TRADE', 2, '000', { ...ORDER, signsQueryOnly: true }),
  orderV1Update: def('POST', '/api/v1/futures/order/update', 'TRADE', 2, '000', ORDER),
  // ---- 000: orders v2
  orderV2Create: def('POST', '/api/v2/futures/order', 'TRADE', 1, '000', ORDER),
  batchOrdersV2: def('POST', '/api/v2/futures/batch-orders', 'TRADE', 2, '000', ORDER),
  orderV2Update: def('POST', '/api/v2/futures/order/update', 'TRADE', 2, '000', ORDER),
  orderV2Cancel: def('DELETE', '/api/v2/futures/order', 'TRADE', 1, '000'),
  batchCancelV2: def('DELETE', '/api/v2/futures/batch-orders', 'TRADE', 3, '000'),
  orderV2Get: def('GET', '/api/v2/futures/order', 'USER_DATA', 1, '000'),
  openOrdersV2: def('GET', '/api/v2/futures/open-orders', 'USER_DATA', 1, '000'),
  historyOrdersV2: def('GET', '/api/v2/futures/history-orders', 'USER_DATA', 5, '000'),
  userTradesV2: def('GET', '/api/v2/futures/user-trades', 'USER_DATA', 5, '000'),
  algoOrderCreate: def('POST', '/api/v2/futures/algo-order', 'TRADE', 1, '000', ORDER),
  algoOrderUpdate: def('POST', '/api/v2/futures/algo-order/update', 'TRADE', 2, '000', ORDER),
  algoOrderGet: def('GET', '/api/v2/futures/algo-order', 'USER_DATA', 1, '000'),
  algoOrderCancel: def('DELETE', '/api/v2/futures/algo-order', 'TRADE', 1, '000'),
  openAlgoOrders: def('GET', '/api/v2/futures/open-algo-orders', 'USER_DATA', 1, '000'),
  historyAlgoOrders: def('GET', '/api/v2/futures/history-algo-orders', 'USER_DATA', 5, '000'),
  // ---- API-NOTES §4: state endpoints a bot needs
  futuresBalance: def('GET', '/api/v1/futures/balance', 'USER_DATA', 5, 'API-NOTES'),
  positions: def('GET', '/api/v1/futures/positions', 'USER_DATA', 5, 'API-NOTES'),
  openOrdersV1: def('GET', '/api/v1/futures/openOrders', 'USER_DATA', 1, 'API-NOTES'),
  orderV1Cancel: def('DELETE', '/api/v1/futures/order', 'TRADE', 1, 'API-NOTES'),
  // ---- API-NOTES §4: the routes a third-party client (ccxt, Toobit.Net, agent-kit) calls besides
  spotAccount: def('GET', '/api/v1/account', 'USER_DATA', 5, 'API-NOTES'),
  historyOrdersV1: def('GET', '/api/v1/futures/historyOrders', 'USER_DATA', 5, 'API-NOTES'),
  userTradesV1: def('GET', '/api/v1/futures/userTrades', 'USER_DATA', 5, 'API-NOTES'),
  batchCancelV1: def('DELETE', '/api/v1/futures/batchOrders', 'TRADE', 5, 'API-NOTES'),
  cancelOrderByIds: def('DELETE', '/api/v1/futures/cancelOrderByIds', 'TRADE', 5, 'API-NOTES'),
  flashClose: def('POST', '/api/v1/futures/flashClose', 'TRADE', 1, 'API-NOTES'),
  reversePosition: def('POST', '/api/v1/futures/reversePosition', 'TRADE', 5, 'API-NOTES'),
  positionMargin: def('POST', '/api/v1/futures/positionMargin', 'TRADE', 1, 'API-NOTES'),
  tradingStop: def('POST', '/api/v1/futures/position/trading-stop', 'TRADE', 3, 'API-NOTES'),
  commissionRate: def('GET', '/api/v1/futures/commissionRate', 'USER_DATA', 5, 'API-NOTES'),
  todayPnl: def('GET', '/api/v1/futures/todayPnl', 'USER_DATA', 5, 'API-NOTES'),
  leverageV2: def('POST', '/api/v2/futures/leverage', 'TRADE', 1, 'API-NOTES'),
  autoAddMargin: def('POST', '/api/v1/futures/autoAddMargin', 'TRADE', 1, 'API-NOTES'),
  historyPositions: def('GET', '/api/v1/futures/historyPositions', 'USER_DATA', 5, 'API-NOTES'),
  checkApiKey: def('GET', '/api/v1/account/checkApiKey', 'USER_DATA', 1, 'API-NOTES'),
  voucherList: def('GET', '/api/v2/futures/voucher/list', 'USER_DATA', 5, 'API-NOTES'),
  voucherReceive: def('POST', '/api/v2/futures/voucher/receive', 'TRADE', 10, 'API-NOTES'),
  // ---- 000: named in the change history only (parameters and replies from ccxt's captures)
  withdraw: def('POST', '/api/v1/account/withdraw', 'TRADE', 1, '000'),
  depositAddress: def('GET', '/api/v1/account/deposit/address', 'USER_DATA', 1, '000'),
  // ---- the wallet's history, as ccxt's fetchWithdrawals / fetchDeposits call it
  withdrawOrders: def('GET', '/api/v1/account/withdrawOrders', 'USER_DATA', 5, 'ccxt'),
  depositOrders: def('GET', '/api/v1/account/depositOrders', 'USER_DATA', 5, 'ccxt'),
  batchCancelAlgoOrders: def('DELETE', '/api/v2/futures/batch-cancel-algo-orders', 'TRADE', 3, 'API-NOTES'),
  // ---- 000: the signed variant of exchangeInfo (same reply)
  authExchangeInfo: def('GET', '/api/v1/auth/exchangeInfo', 'USER_DATA', 1, '000'),
  // ---- 001: market data (public)
  ping: def('GET', '/api/v1/ping', 'NONE', 1, 'API-NOTES'),
  time: def('GET', '/api/v1/time', 'NONE', 1, '001'),
  exchangeInfo: def('GET', '/api/v1/exchangeInfo', 'NONE', 1, '001'),
  depth: def('GET', '/quote/v1/depth', 'NONE', 1, '001'),
  depthMerged: def('GET', '/quote/v1/depth/merged', 'NONE', 1, '001'),
  trades: def('GET', '/quote/v1/trades', 'NONE', 1, '001'),
  klines: def('GET', '/quote/v1/klines', 'NONE', 1, '001'),
  indexKlines: def('GET', '/quote/v1/index/klines', 'NONE', 1, '001'),
  indexPriceComponents: def('GET', '/quote/v1/indexPriceComponents', 'NONE', 1, '001'),
  markPriceKlines: def('GET', '/quote/v1/markPrice/klines', 'NONE', 1, '001'),
  markPrice: def('GET', '/quote/v1/markPrice', 'NONE', 1, '001'),
  fundingRate: def('GET', '/api/v1/futures/fundingRate', 'NONE', 1, '001'),
  historyFundingRate: def('GET', '/api/v1/futures/historyFundingRate', 'NONE', 1, '001'),
  openInterest: def('GET', '/quote/v1/openInterest', 'NONE', 1, '001'),
  longShortRatio: def('GET', '/quote/v1/globalLongShortAccountRatio', 'NONE', 1, '001'),
  insuranceFund: def('GET', '/api/v1/futures/insuranceBySymbol', 'NONE', 1, '001'),
  riskLimits: def('GET', '/api/v1/futures/riskLimits', 'NONE', 1, '001'),
  contractTicker24h: def('GET', '/quote/v1/contract/ticker/24hr', 'NONE', 1, '001'),
  contractTickerPrice: def('GET', '/quote/v1/contract/ticker/price', 'NONE', 1, '001'),
  index: def('GET', '/quote/v1/index', 'NONE', 1, '001'),
  contractBookTicker: def('GET', '/quote/v1/contract/ticker/bookTicker', 'NONE', 1, '001'),
  spotTicker24h: def('GET', '/quote/v1/ticker/24hr', 'NONE', 1, '001'),
  spotTickerPrice: def('GET', '/quote/v1/ticker/price', 'NONE', 1, '001'),
  spotBookTicker: def('GET', '/quote/v1/ticker/bookTicker', 'NONE', 1, '001'),
  // ---- 001: user data stream
  listenKeyCreate: def('POST', '/api/v1/listenKey', 'USER_STREAM', 1, '001', READS),
  listenKeyKeepalive: def('PUT', '/api/v1/listenKey', 'USER_STREAM', 1, '001', READS),
  listenKeyClose: def('DELETE', '/api/v1/listenKey', 'USER_STREAM', 1, '001', READS),
  // ---- 001: copy-trading follower (v2 wrapper)
  followerCurrent: def('GET', '/api/v2/copy-trading/follower/orders/current', 'USER_DATA', 1, '001'),
  followerHistory: def('GET', '/api/v2/copy-trading/follower/orders/history', 'USER_DATA', 1, '001'),
  followerStopProfitLoss: def('PUT', '/api/v2/copy-trading/follower/positions/stop-profit-loss', 'TRADE', 1, '001'),
  followerConfigSet: def('PUT', '/api/v2/copy-trading/follower/config', 'TRADE', 1, '001'),
  followerConfigGet: def('GET', '/api/v2/copy-trading/follower/config', 'USER_DATA', 1, '001'),
  followerLeaders: def('GET', '/api/v2/copy-trading/follower/leaders', 'USER_DATA', 1, '001'),
  followerUnfollow: def('DELETE', '/api/v2/copy-trading/follower/leaders/{leaderUserId}', 'TRADE', 1, '001'),
} as const satisfies Record<string, EndpointDef>;

export type EndpointName = keyof typeof ENDPOINTS;

/** Depth weight by limit (document 001): up to 100 is 1, 500 is 5, 1000 is 10; limit=0 is "a large amount". */
export function depthWeight(limit: number | undefined): number {
  if (limit === undefined) return 1;
  if (limit === 0 || limit > 500) return 10;
  if (limit > 100) return 5;
  return 1;
}

/** 24h tickers: 1 with a symbol, 40 for all symbols. */
export function tickerWeight(symbol: string | undefined): number {
  return symbol === undefined || symbol === '' ? 40 : 1;
}

const labels = new WeakMap<EndpointDef, string>();

/**
 * "METHOD /path", one string per endpoint: every request's report and metric key carry it, and a
 * string built per request would be hashed afresh wherever it is a map key (once per poll, cold).
 */
export function endpointLabel(e: EndpointDef): string {
  let label = labels.get(e);
  if (label === undefined) {
    label = `${e.method} ${e.path}`;
    labels.set(e, label);
  }
  return label;
}
