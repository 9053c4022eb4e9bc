import type { z } from 'zod';
import * as account from '../../src/venue/parsers/account.js';
import { exchangeInfoSchema } from '../../src/venue/parsers/exchange-info.js';
import * as follower from '../../src/venue/parsers/follower.js';
import * as market from '../../src/venue/parsers/market.js';
import * as v1 from '../../src/venue/parsers/order-v1.js';
import * as v2 from '../../src/venue/parsers/order-v2.js';
import { emptyObject, listenKeySchema } from '../../src/venue/parsers/user-stream.js';

/**
 * Valid replies of every REST parser, from API-NOTES (§4, §5) and document 001 examples as the venue tests
 * use them: the starting points the bad-input generators mutate, and what every parser must accept.
 */

// ---- orders (API-NOTES §4.4, §5.7, §5.8, §5.9)
export const ORDER_V1_ROW = {
  time: '1757620013810', updateTime: '1757620013810', orderId: '2037458781311385600', clientOrderId: '8d3c44d8-aad9-4fd6-b7f7-2ccf01aa0c4f',
  symbol: 'ETH-SWAP-USDT', price: '7234', leverage: '31', origQty: '1', executedQty: '0', executeQty: '0', avgPrice: '0', marginLocked: '2.33',
  type: 'LIMIT', side: 'SELL_OPEN', timeInForce: 'GTC', status: 'PENDING_NEW', priceType: 'INPUT', contractMultiplier: '0.01000000',
  triggerType: '0', fallType: '0', activeStatus: '0',
};
export const STOP_V1_ROW = {
  time: '1767952799216', orderId: '2124136467689134848', accountId: '122216245228131', clientOrderId: 'stop-1', symbol: 'BTC-SWAP-USDT',
  leverage: '20', origQty: '2', price: '0', executedOrderId: '0', type: 'STOP', side: 'BUY_OPEN', status: 'ORDER_NEW', priceType: 'MARKET',
  stopPrice: '95000', triggerBy: 'CONTRACT_PRICE', triggerType: '0', orderType: 'STOP_COMMON',
};
export const TPSL_V1_ROW = {
  ...STOP_V1_ROW, orderId: '2124136467689135002', clientOrderId: '1767952804000', type: 'STOP_PROFIT_LOSS', side: 'SELL_CLOSE', stopPrice: '0',
  triggerType: 1, orderType: 'STOP_LONG_LOSS', activePrice: '95000', fallType: 1, fallQuantity: '0.01', activeStatus: '0',
};
export const ORDER_V2_ROW = {
  time: '1668418485058', updateTime: '1668418485058', orderId: '1289182123551455488', clientOrderId: 'test1115', symbol: 'BTC-SWAP-USDT',
  price: '19000', leverage: '2', origQty: '10', executedQty: '0', avgPrice: '0', marginLocked: '9.5', type: 'LIMIT', side: 'BUY',
  positionSide: 'LONG', timeInForce: 'GTC', status: 'NEW', contractMultiplier: '0.001',
};
export const PLAN_V2_ROW = {
  time: '1767952799216', updateTime: '1767952799216', orderId: '2124136467689134848', clientOrderId: '1767952799112', symbol: 'BTC-SWAP-USDT',
  price: '0', leverage: '20', origQty: '2', executedQty: '0', avgPrice: '0', marginLocked: '10', type: 'STOP_MARKET', side: 'BUY',
  positionSide: 'LONG', timeInForce: 'GTC', status: 'ORDER_NEW', contractMultiplier: '0.001', stopPrice: '95000', triggerBy: 'CONTRACT_PRICE',
};
export const TRAIL_V2_ROW = {
  time: '1767952804000', updateTime: '1767952804000', orderId: '2124136467689135002', clientOrderId: 'trail-001', symbol: 'BTC-SWAP-USDT',
  price: '0', leverage: '20', origQty: '1', executedQty: '0', avgPrice: '0', marginLocked: '5', type: 'STOP_PROFIT_LOSS', side: 'SELL',
  positionSide: 'LONG', timeInForce: 'GTC', status: 'ORDER_NEW', contractMultiplier: '0.001', stopPrice: '0', triggerBy: 'CONTRACT_PRICE',
  stopOrderType: 'STOP_LOSS', stopType: 'TRAILING_STOP', activePrice: '95000', fallbackType: 'RATE', fallbackQuantity: '0.01', activeStatus: 0,
};
export const TRADE_V2_ROW = {
  time: '1668419000000', createdTime: '1668419000100', id: '9876543210', orderId: '1289182123551455488', matchOrderId: '1289182123551456000',
  matchAccountId: '10001', accountId: '122216245228131', symbol: 'BTC-SWAP-USDT', price: '19000', qty: '1', commissionAsset: 'USDT',
  commission: '0.01', makerRebate: '0', type: 'LIMIT', side: 'BUY', positionSide: 'LONG', realizedPnl: '0', ticketId: 't1', isMaker: true, matchOrderStrategy: 0,
};

// ---- account (API-NOTES §4.1, §4.2, §5.11, §5.12)
export const SUB_ACCOUNTS = [
  {
    userId: '879141111', email: 'aaa@rpbsho.com', remark: '',
    accountList: [
      { accountId: '1795119090857208832', userId: '879145609', accountType: 'MAIN' },
      { accountId: '1795119090857208834', userId: '879145609', accountType: 'FUTURES' },
    ],
  },
];
export const FLOW_V1 = {
  id: '539870570957903104', accountId: '122216245228131', coin: 'BTC', coinId: 'BTC', coinName: 'BTC', flowTypeValue: 51,
  flowType: 'USER_ACCOUNT_TRANSFER', flowName: 'Transfer', change: '-12.5', total: '379.624059937852365', created: '1579093587214',
};
export const FLOW_V2 = {
  id: '539870570957903104', accountType: 'MAIN', coin: 'BTC', symbol: 'BTCUSDT', flowType: 'USER_ACCOUNT_TRANSFER', flowName: 'Transfer',
  change: '-12.5', total: '379.624059937852365', created: 1579093587214,
};
export const BALANCE_ROWS = [
  { balance: '10.07317715', availableBalance: '9.07317715', positionMargin: '0', orderMargin: '1', asset: 'USDT', crossUnRealizedPnl: '0' },
  { balance: '10.07317715', availableBalance: '9.07317715', positionMargin: '0', orderMargin: '1', coin: 'USDC', crossUnRealizedPnl: '0', coupon: '100.5' },
];
export const POSITION_ROW = {
  symbol: 'DOGE-SWAP-USDT', side: 'LONG', avgPrice: '0.21191', position: '63', available: '63', leverage: '25', lastPrice: '0.20932',
  positionValue: '13.3503', flp: '0.05471', margin: '0.5262', marginRate: '', unrealizedPnL: '-0.1701', profitRate: '-0.3185',
  realizedPnL: '-0.008', minMargin: '0', maxNotionalValue: '10000000', markPrice: '0.20921',
};

// ---- market data (API-NOTES §5.1–§5.6, document 001 "Market data shapes")
const CONTRACT = {
  filters: [
    { minPrice: '0.1', maxPrice: '100000.00000000', tickSize: '0.1', filterType: 'PRICE_FILTER' },
    { minQty: '0.0001', maxQty: '4000', stepSize: '0.0001', filterType: 'LOT_SIZE' },
    { minNotional: '10', filterType: 'MIN_NOTIONAL' },
    { minAmount: '10', maxAmount: '6600000', minBuyPrice: '0.01', filterType: 'TRADE_AMOUNT' },
    { maxSellPrice: '999999999', buyPriceUpRate: '0.1', sellPriceDownRate: '0.1', maxEntrustNum: '100000', maxConditionNum: '100000', filterType: 'LIMIT_TRADING' },
    { buyPriceUpRate: '0.1', sellPriceDownRate: '0.1', filterType: 'MARKET_TRADING' },
    { noAllowMarketStartTime: '0', noAllowMarketEndTime: '0', limitOrderStartTime: '0', limitOrderEndTime: '0', limitMinPrice: '0', limitMaxPrice: '0', filterType: 'OPEN_QUOTE' },
    { maxNumOrders: '200', filterType: 'MAX_NUM_ORDERS' },
  ],
  exchangeId: '301', symbol: 'BTC-SWAP-USDT', symbolName: 'BTC-SWAP-USDT', status: 'TRADING', baseAsset: 'BTC-SWAP-USDT', baseAssetPrecision: '0.001',
  quoteAsset: 'USDT', quoteAssetPrecision: '0.1', icebergAllowed: false, inverse: false, index: 'BTC', indexToken: 'BTCUSDT', marginToken: 'USDT',
  marginPrecision: '0.0001', contractMultiplier: '0.001', underlying: 'BTC',
  riskLimits: [
    { riskLimitId: '200020911', quantity: '42000.0', initialMargin: '0.02', maintMargin: '0.01', isWhite: false },
    { riskLimitId: '200020912', quantity: '84000.0', initialMargin: '0.04', maintMargin: '0.02', isWhite: false },
  ],
  categories: ['New', 'TradFi'], closingStartTime: '0', closingEndTime: '0', isRwa: false,
};
export const EXCHANGE_INFO = {
  timezone: 'UTC', serverTime: '1757430201279', brokerFilters: [],
  symbols: [{
    filters: [
      { minPrice: '0.01', maxPrice: '10000000.00000000', tickSize: '0.01', filterType: 'PRICE_FILTER' },
      { minQty: '0.0001', maxQty: '4000', stepSize: '0.0001', filterType: 'LOT_SIZE' },
      { minNotional: '5', filterType: 'MIN_NOTIONAL' },
    ],
    exchangeId: '301', symbol: 'ETHUSDT', symbolName: 'ETHUSDT', status: 'TRADING', baseAsset: 'ETH', baseAssetName: 'ETH', baseAssetPrecision: '0.0001',
    quoteAsset: 'USDT', quoteAssetName: 'USDT', quotePrecision: '0.01', icebergAllowed: false, isAggregate: false, allowMargin: true,
  }],
  rateLimits: [
    { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalUnit: 1, limit: 3000, burst: 3000 },
    { rateLimitType: 'ORDERS', interval: 'SECOND', intervalUnit: 2, limit: 60 },
  ],
  options: [],
  contracts: [CONTRACT, { ...CONTRACT, symbol: 'ETH-SWAP-USDT', symbolName: 'ETH-SWAP-USDT', index: 'ETHUSDT', indexToken: undefined, contractMultiplier: '0.01', categories: [] }],
  coins: [{
    orgId: '9001', coinId: 'USDT', coinName: 'USDT', coinFullName: 'TetherUS', allowWithdraw: true, allowDeposit: true,
    chainTypes: [{ chainType: 'TRX', withdrawFee: '1', minWithdrawQuantity: '10', maxWithdrawQuantity: '0', minDepositQuantity: '1', allowDeposit: true, allowWithdraw: true }],
    isVirtual: false,
  }],
};
export const DEPTH = { t: 1757443224811, b: [['111021.4', '15224'], ['111021.3', '2691']], a: [['111021.5', '45741'], ['111021.6', '9866']] };
export const TRADES = [{ t: 1757443158362, p: '111054.8', q: '36', ibm: false }, { t: 1757443160200, p: '111054.8', q: '3', ibm: true }];
export const KLINES = [[1757383260000, '111333.7', '111333.7', '111318.5', '111321.1', '22931', 0, '2552863.1704', 42, '8037', '894758.3915']];
export const TICKER_24H = {
  t: '1757452337074', s: 'BTC-SWAP-USDT', c: '111631.9', h: '113238', l: '110714.9', o: '111919.7', b: '111631.8', a: '111631.9',
  v: '60468626', qv: '6768507258.5314', op: '458468.998', pc: '-287.8', pcp: '-0.0026',
};
export const MARK_PRICE = { exchangeId: 301, symbolId: 'BTC-SWAP-USDT', price: '17042.54471', time: 1670897454000 };
export const FUNDING = { symbol: 'BTC-SWAP-USDT', rate: '0.0018099173553719', period: '8H', nextFundingTime: '1668427200000', interest: '0.0001', fundingRateCap: '0.003', fundingRateFloor: '-0.003' };
export const BOOK_TICKER = { t: 1757452337074, s: 'BTC-SWAP-USDT', b: '111631.8', bq: '120', a: '111631.9', aq: '75' };

// ---- copy trading (API-NOTES §5.13)
const CURRENT_ROW = {
  leaderUserId: '123456789', leaderNickname: 'S5', leaderAvatar: 'https://static.example.com/avatar.png', symbolId: 'BTC-SWAP-USDT', isLong: 1,
  positionType: 1, leverage: '20', openAvgPrice: '6805', markPrice: '7121.97', currentPrice: '6805', quantity: '0.01', margin: '3.3854',
  liquidationPrice: '', unrealizedProfit: '3.17', unrealizedProfitRate: '0.9315', stopProfitRate: '', stopLossRate: '',
};
const HISTORY_DATA = {
  pages: '1', total: '1',
  list: [{
    symbolId: 'BTC-SWAP-USDT', positionType: 1, leverage: '20', isLong: 1, leaderNickname: 'S5', leaderAvatar: 'https://static.example.com/avatar.png',
    openTimeMs: '1717200000000', lastCloseTimeMs: '1717203600000', openAvgPrice: '6805', closeAvgPrice: '7100', maxPositionQuantity: '0.02',
    closedQuantity: '0.02', realizedProfit: '5.9', closeStatus: 2,
  }],
};
const CONFIG_DATA = {
  leaderUserId: '123456789', investAmount: '100', singlePlaceAmount: '10', dailyMaxInvestAmount: '50', leverage: '20', maxInvestRate: '0.5',
  stopProfitRate: '0.1', stopLossRate: '0.2', followAmountMode: 1, stopLossDelay: 30, isolatedReservedAmount: '5', followMarginType: 2,
  followSymbolIds: 'BTC-SWAP-USDT,ETH-SWAP-USDT', zeroSlippageSwitch: true,
};
const LEADER_ROW = {
  leaderUserId: '123456789', leaderNickname: 'S5', leaderAvatar: 'https://static.example.com/avatar.png', marginBalance: '521.64',
  availableMargin: '518.25', unrealisedPnl: '-0.03', realisedProfit: '0', holdingProfitSharing: '0', settledProfitSharing: '0.58', netProfit: '-0.58',
};

export interface ParserSample {
  readonly name: string;
  readonly schema: z.ZodType;
  readonly sample: unknown;
}

/** Every REST payload schema of src/venue/parsers with a valid sample. */
export const PARSER_SAMPLES: readonly ParserSample[] = [
  { name: 'order v1 (create)', schema: v1.regularOrderV1Schema, sample: ORDER_V1_ROW },
  { name: 'order v1 list', schema: v1.regularOrderV1ListSchema, sample: [ORDER_V1_ROW, { ...ORDER_V1_ROW, executedQty: undefined }] },
  { name: 'order v1 conditional list', schema: v1.conditionalOrderV1ListSchema, sample: [STOP_V1_ROW, TPSL_V1_ROW] },
  { name: 'order v1 batch', schema: v1.batchResultV1Schema, sample: { code: 200, result: [{ code: 200, order: ORDER_V1_ROW }, { code: -1131, msg: 'Balance insufficient' }] } },
  { name: 'order v2', schema: v2.orderV2Schema, sample: ORDER_V2_ROW },
  { name: 'order v2 list', schema: v2.orderV2ListSchema, sample: [ORDER_V2_ROW, PLAN_V2_ROW, TRAIL_V2_ROW] },
  { name: 'order v2 batch', schema: v2.batchResultV2Schema, sample: [{ code: 200, order: ORDER_V2_ROW }, { code: -1131, msg: 'Balance insufficient', order: null }] },
  { name: 'user trades v2', schema: v2.userTradesV2Schema, sample: [TRADE_V2_ROW] },
  { name: 'sub-accounts', schema: account.subAccountListSchema, sample: SUB_ACCOUNTS },
  { name: 'balance flow v1', schema: account.balanceFlowListSchema, sample: [FLOW_V1] },
  { name: 'futures balance flow', schema: account.futuresBalanceFlowListSchema, sample: [{ ...FLOW_V1, symbol: 'BTC-SWAP-USDT', symbolId: '' }] },
  { name: 'balance flow v2', schema: account.balanceFlowV2ListSchema, sample: [FLOW_V2] },
  { name: 'ack', schema: account.ackSchema, sample: { code: 200, msg: 'success' } },
  { name: 'margin type', schema: account.marginTypeResultSchema, sample: { code: 200, marginType: 'CROSS', symbolId: 'BTC-SWAP-USDT' } },
  { name: 'leverage', schema: account.leverageResultSchema, sample: { code: '200', leverage: '3', symbol: 'BTC-SWAP-USDT' } },
  { name: 'account leverage', schema: account.accountLeverageListSchema, sample: [{ leverage: '20', marginType: 'ISOLATED', symbolId: 'BTC-SWAP-USDT' }] },
  { name: 'futures balance', schema: account.futuresBalanceListSchema, sample: BALANCE_ROWS },
  { name: 'positions', schema: account.positionListSchema, sample: [POSITION_ROW] },
  { name: 'exchangeInfo', schema: exchangeInfoSchema, sample: EXCHANGE_INFO },
  { name: 'depth', schema: market.orderBookSchema, sample: DEPTH },
  { name: 'trades', schema: market.tradesSchema, sample: TRADES },
  { name: 'klines 1m', schema: market.klinesSchema('1m'), sample: KLINES },
  { name: 'klines 1M', schema: market.klinesSchema('1M'), sample: KLINES },
  { name: 'index klines', schema: market.indexKlinesSchema, sample: { code: 0, data: [{ t: 1757383200000, s: 'BTCUSDT', sn: 'BTCUSDT', c: '111321.1', h: '111333.7', l: '111318.5', o: '111333.7', v: '0', st: 1757383265000 }] } },
  {
    name: 'mark price klines',
    schema: market.markPriceKlinesSchema,
    sample: { code: 0, data: [{ symbol: 'BTC-SWAP-USDT', time: 1757383200000, low: '111318.5', open: '111333.7', high: '111340', close: '111321.1', volume: '0', curId: 1757383200000, klineType: '1m', change: '-0.00012' }] },
  },
  { name: 'index price components', schema: market.indexPriceComponentsSchema, sample: { index: '111300.5', edp: '111290.1', components: [{ exchange: 'binance', spotPair: 'BTCUSDT', weight: '0.5' }], time: 1757383265000 } },
  { name: 'index prices', schema: market.indexPricesSchema, sample: { index: { BTCUSDT: '111300.5' }, edp: { BTCUSDT: '111290.1' } } },
  { name: 'mark price', schema: market.markPriceOneSchema, sample: MARK_PRICE },
  { name: 'mark prices', schema: market.markPriceListSchema, sample: [MARK_PRICE] },
  { name: 'funding rates', schema: market.fundingRatesSchema, sample: [FUNDING] },
  { name: 'funding history', schema: market.fundingHistoryListSchema, sample: [{ id: '915238', symbol: 'BTC-SWAP-USDT', settleTime: '1757433600000', settleRate: '0.0001115358602744', period: '8H' }] },
  { name: 'open interest', schema: market.openInterestListSchema, sample: { openInterestList: [{ symbol: 'BTC-SWAP-USDT', size: '458468.998' }] } },
  { name: 'long/short ratio', schema: market.longShortRatiosSchema, sample: [{ symbol: 'BTC-SWAP-USDT', timeStamp: 1757433600000, longShortRatio: '1.25', longAccount: '0.5556', shortAccount: '0.4444' }] },
  { name: 'insurance fund', schema: market.insuranceFundListSchema, sample: { list: [{ coin: 'USDT', symbol: 'BTC-SWAP-USDT', value: '1234567.89', updateTime: '1757376000000' }] } },
  { name: 'risk limits', schema: market.riskLimitLevelsSchema, sample: [{ level: 1, quantity: '42000', maintainMargin: '0.01', initialMargin: '0.02', maxLeverage: 50 }] },
  { name: '24h tickers', schema: market.tickers24hSchema, sample: [TICKER_24H] },
  { name: 'price tickers', schema: market.priceTickersSchema, sample: [{ s: 'BTC-SWAP-USDT', p: '111631.9' }] },
  { name: 'book tickers', schema: market.bookTickersSchema, sample: [BOOK_TICKER] },
  { name: 'server time', schema: market.serverTimeSchema, sample: { serverTime: 1790112378318 } },
  { name: 'ping', schema: market.pingSchema, sample: {} },
  { name: 'follower positions', schema: follower.followerPositionsSchema, sample: [CURRENT_ROW] },
  { name: 'follower history', schema: follower.followerHistoryPageSchema, sample: HISTORY_DATA },
  { name: 'follower config', schema: follower.followerConfigSchema, sample: CONFIG_DATA },
  { name: 'leaders', schema: follower.leaderSummariesSchema, sample: [LEADER_ROW] },
  { name: 'listen key', schema: listenKeySchema, sample: { listenKey: 'zUeuthxEYbqupygpYQKPTgDemAQWXJdrpzVhmVOSKSDUzMWzIAVgPgYbDLuxBpNu' } },
  { name: 'empty object', schema: emptyObject, sample: {} },
];
