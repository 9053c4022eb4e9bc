import type { Result } from '../../src/core/result.js';
import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import type { VenueError } from '../../src/venue/venue-error.js';
import { clientFor } from '../support/client.js';
import { FixtureVenue, paramsOf } from '../support/fixture-venue.js';
import { outcomeOf } from '../support/skipped-rows.js';
import type { RecordedRequest } from '../support/fixture-venue.js';

// API-NOTES §5.1 (composite; one contract uses the docs' form without indexToken, plus an undocumented filter type).
const CONTRACT = {
  filters: [
    { minPrice: '0.1', maxPrice: '100000.00000000', tickSize: '0.1', filterType: 'PRICE_FILTER' },
    { minQty: '0.0001', maxQty: '4000', stepSize: '0.0001', filterType: 'LOT_SIZE' },
    { minNotional: '10', filterType: 'MIN_NOTIONAL' },
    { minAmount: '10', maxAmount: '6600000', minBuyPrice: '0.01', filterType: 'TRADE_AMOUNT' },
    { maxSellPrice: '999999999', buyPriceUpRate: '0.1', sellPriceDownRate: '0.1', maxEntrustNum: '100000', maxConditionNum: '100000', filterType: 'LIMIT_TRADING' },
    { buyPriceUpRate: '0.1', sellPriceDownRate: '0.1', filterType: 'MARKET_TRADING' },
    { noAllowMarketStartTime: '0', noAllowMarketEndTime: '0', limitOrderStartTime: '0', limitOrderEndTime: '0', limitMinPrice: '0', limitMaxPrice: '0', filterType: 'OPEN_QUOTE' },
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
const DOCS_CONTRACT = {
  ...CONTRACT, symbol: 'ETH-SWAP-USDT', symbolName: 'ETH-SWAP-USDT', index: 'ETHUSDT', indexToken: undefined, contractMultiplier: '0.01', categories: [],
  filters: [...CONTRACT.filters, { maxNumOrders: '200', filterType: 'MAX_NUM_ORDERS' }], closingStartTime: undefined, closingEndTime: undefined, isRwa: undefined,
};
const EXCHANGE_INFO = {
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
  contracts: [CONTRACT, DOCS_CONTRACT],
  coins: [{
    orgId: '9001', coinId: 'USDT', coinName: 'USDT', coinFullName: 'TetherUS', allowWithdraw: true, allowDeposit: true,
    chainTypes: [{ chainType: 'TRX', withdrawFee: '1', minWithdrawQuantity: '10', maxWithdrawQuantity: '0', minDepositQuantity: '1', allowDeposit: true, allowWithdraw: true }],
    isVirtual: false,
  }],
};
// §5.2–§5.6.
const DEPTH = { t: 1757443224811, b: [['111021.4', '15224'], ['111021.3', '2691']], a: [['111021.5', '45741'], ['111021.6', '9866']] };
const TRADES = [{ t: 1757443158362, p: '111054.8', q: '36', ibm: false }, { t: 1757443160200, p: '111054.8', q: '3', ibm: true }];
const KLINE = [1757383260000, '111333.7', '111333.7', '111318.5', '111321.1', '22931', 0, '2552863.1704', 42, '8037', '894758.3915'];
const TICKER_24H = {
  t: '1757452337074', s: 'BTC-SWAP-USDT', c: '111631.9', h: '113238', l: '110714.9', o: '111919.7', b: '111631.8', a: '111631.9',
  v: '60468626', qv: '6768507258.5314', op: '458468.998', pc: '-287.8', pcp: '-0.0026',
};
const MARK_PRICE = { exchangeId: 301, symbolId: 'BTC-SWAP-USDT', price: '17042.54471', time: 1670897454000 };
const FUNDING = { symbol: 'BTC-SWAP-USDT', rate: '0.0018099173553719', period: '8H', nextFundingTime: '1668427200000', interest: '0.0001', fundingRateCap: '0.003', fundingRateFloor: '-0.003' };
const FUNDING_HISTORY = { id: '915238', symbol: 'BTC-SWAP-USDT', settleTime: '1757433600000', settleRate: '0.0001115358602744', period: '8H' };
// Shapes from document 001 "Market data shapes".
const INDEX_KLINE = { t: 1757383200000, s: 'BTCUSDT', sn: 'BTCUSDT', c: '111321.1', h: '111333.7', l: '111318.5', o: '111333.7', v: '0', st: 1757383265000 };
const MARK_KLINE = { symbol: 'BTC-SWAP-USDT', time: 1757383200000, low: '111318.5', open: '111333.7', high: '111340', close: '111321.1', volume: '0', curId: 1757383200000, klineType: '1m', change: '-0.00012' };

let venue: FixtureVenue;
let client: ExchangeClient;

beforeAll(async () => {
  venue = await FixtureVenue.start();
  client = clientFor(venue);
});
afterAll(() => venue.close());
beforeEach(() => venue.clear());

/** The request was a public GET on `path` with exactly these parameters and no signing artefacts. */
function expectPublicGet(path: string, params: Record<string, string> = {}): RecordedRequest {
  const wire = venue.last();
  expect(wire.method).toBe('GET');
  expect(wire.path).toBe(path);
  expect(paramsOf(wire)).toEqual(params);
  expect(wire.signature).toBe('absent');
  expect(wire.headers['x-bb-apikey']).toBeUndefined();
  return wire;
}

async function weightOf(call: () => Promise<unknown>): Promise<number> {
  const before = client.governor.snapshot().weightUsed;
  await call();
  return client.governor.snapshot().weightUsed - before;
}

describe('market data: exchange', () => {
  it('pings and reads the server time (number or string)', async () => {
    venue.reply('GET /api/v1/ping', { body: {} });
    expect((await client.market.ping()).ok).toBe(true);
    expectPublicGet('/api/v1/ping');

    venue.reply('GET /api/v1/time', { body: { serverTime: 1790112378318 } }).reply('GET /api/v1/time', { body: { serverTime: '1790112378319' } });
    expect(await client.market.serverTime()).toEqual({ ok: true, value: 1790112378318 });
    expectPublicGet('/api/v1/time');
    expect(await client.market.serverTime()).toEqual({ ok: true, value: 1790112378319 });
  });

  it('parses exchangeInfo: contracts with the seven filters, risk limits, index token, spot symbols, rate limits, coins', async () => {
    venue.reply('GET /api/v1/exchangeInfo', { body: EXCHANGE_INFO });
    const result = await client.market.exchangeInfo();
    expectPublicGet('/api/v1/exchangeInfo');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const info = result.value;
    expect(info.serverTime).toBe(1757430201279);
    expect(info.timezone).toBe('UTC');

    const [btc, eth] = info.contracts;
    expect(btc?.filters.map((f) => f.filterType)).toEqual(['PRICE_FILTER', 'LOT_SIZE', 'MIN_NOTIONAL', 'TRADE_AMOUNT', 'LIMIT_TRADING', 'MARKET_TRADING', 'OPEN_QUOTE']);
    const price = btc?.filters.find((f) => f.filterType === 'PRICE_FILTER');
    expect(price?.filterType === 'PRICE_FILTER' && price.tickSize.toString()).toBe('0.1');
    const lot = btc?.filters.find((f) => f.filterType === 'LOT_SIZE');
    expect(lot?.filterType === 'LOT_SIZE' && lot.stepSize.toString()).toBe('0.0001');
    const limit = btc?.filters.find((f) => f.filterType === 'LIMIT_TRADING');
    expect(limit?.filterType === 'LIMIT_TRADING' && [limit.maxEntrustNum, limit.maxSellPrice?.toString()]).toEqual([100000, '999999999']);
    const quote = btc?.filters.find((f) => f.filterType === 'OPEN_QUOTE');
    expect(quote?.filterType === 'OPEN_QUOTE' && [quote.noAllowMarketStartTime, quote.limitMaxPrice?.toString()]).toEqual([0, '0']);
    expect(btc?.contractMultiplier.toString()).toBe('0.001');
    expect(btc?.exchangeId).toBe('301');
    expect(btc?.index).toBe('BTC');
    expect(btc?.indexToken).toBe('BTCUSDT');
    expect(btc?.riskLimits[1]?.riskLimitId).toBe('200020912');
    expect(btc?.riskLimits[1]?.quantity.toString()).toBe('84000');
    expect(btc?.riskLimits[1]?.maintMargin.toString()).toBe('0.02');
    expect(btc?.categories).toEqual(['New', 'TradFi']);
    expect(btc?.closingStartTime).toBe(0);
    // Docs form: indexToken falls back to index; optional fields stay absent; the unknown filter type is skipped.
    expect(eth?.indexToken).toBe('ETHUSDT');
    expect(eth?.categories).toEqual([]);
    expect(eth !== undefined && 'closingStartTime' in eth).toBe(false);
    expect(eth?.filters).toHaveLength(7);

    const spot = info.symbols?.[0];
    expect(spot?.symbol).toBe('ETHUSDT');
    expect(spot?.quotePrecision?.toString()).toBe('0.01');
    expect(spot?.allowMargin).toBe(true);
    expect(info.rateLimits?.map((r) => [r.rateLimitType, r.interval, r.intervalUnit, r.limit])).toEqual([['REQUEST_WEIGHT', 'MINUTE', 1, 3000], ['ORDERS', 'SECOND', 2, 60]]);
    expect(info.coins?.[0]?.chainTypes?.[0]?.withdrawFee?.toString()).toBe('1');
    expect(info.coins?.[0]?.chainTypes?.[0]?.minDepositQuantity?.toString()).toBe('1');
  });
});

describe('market data: book, trades, candles', () => {
  it('reads depth as price/qty levels, sending symbol and limit', async () => {
    venue.reply('GET /quote/v1/depth', { body: DEPTH }).reply('GET /quote/v1/depth', { body: { ...DEPTH, t: '1757443224812', b: [], a: [] } });
    const result = await client.market.depth({ symbol: 'BTC-SWAP-USDT', limit: 20 });
    expectPublicGet('/quote/v1/depth', { symbol: 'BTC-SWAP-USDT', limit: '20' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.time).toBe(1757443224811);
    expect(result.value.bids.map((l) => [l.price.toString(), l.qty.toString()])).toEqual([['111021.4', '15224'], ['111021.3', '2691']]);
    expect(result.value.asks[0]?.price.toString()).toBe('111021.5');
    // A delisted symbol: empty sides; `t` as a string.
    const empty = await client.market.depth({ symbol: 'OLD-SWAP-USDT' });
    expectPublicGet('/quote/v1/depth', { symbol: 'OLD-SWAP-USDT' });
    expect(empty.ok && [empty.value.time, empty.value.bids, empty.value.asks]).toEqual([1757443224812, [], []]);
  });

  it('charges depth weight by limit: default 1, 500 costs 5, 1000 costs 10, 0 costs 10', async () => {
    venue.always('GET /quote/v1/depth', { body: DEPTH });
    expect(await weightOf(() => client.market.depth({ symbol: 'BTC-SWAP-USDT' }))).toBe(1);
    expect(await weightOf(() => client.market.depth({ symbol: 'BTC-SWAP-USDT', limit: 100 }))).toBe(1);
    expect(await weightOf(() => client.market.depth({ symbol: 'BTC-SWAP-USDT', limit: 500 }))).toBe(5);
    expect(await weightOf(() => client.market.depth({ symbol: 'BTC-SWAP-USDT', limit: 1000 }))).toBe(10);
    expect(await weightOf(() => client.market.depth({ symbol: 'BTC-SWAP-USDT', limit: 0 }))).toBe(10);
  });

  it('refuses depth without symbol or with an unpriced limit, sending nothing', async () => {
    const noSymbol = await client.market.depth({ symbol: ' ' });
    expect(!noSymbol.ok && [noSymbol.error.kind, noSymbol.error.rule, noSymbol.error.field]).toEqual(['invalid-request', 'mandatory-parameter', 'symbol']);
    const badLimit = await client.market.depth({ symbol: 'BTC-SWAP-USDT', limit: 30 });
    expect(!badLimit.ok && [badLimit.error.rule, badLimit.error.field]).toEqual(['limit-value', 'limit']);
    expect(venue.requests).toHaveLength(0);
  });

  it('reads the merged book with scale and refuses scale outside 0..5', async () => {
    venue.reply('GET /quote/v1/depth/merged', { body: DEPTH });
    const result = await client.market.depthMerged({ symbol: 'BTC-SWAP-USDT', scale: 1, limit: 40 });
    expectPublicGet('/quote/v1/depth/merged', { symbol: 'BTC-SWAP-USDT', scale: '1', limit: '40' });
    expect(result.ok && result.value.bids[1]?.qty.toString()).toBe('2691');
    venue.clear();
    const bad = await client.market.depthMerged({ symbol: 'BTC-SWAP-USDT', scale: 6 });
    expect(!bad.ok && [bad.error.rule, bad.error.field]).toEqual(['scale-range', 'scale']);
    const negative = await client.market.depthMerged({ symbol: 'BTC-SWAP-USDT', scale: -1 });
    expect(!negative.ok && negative.error.rule).toBe('scale-range');
    expect(venue.requests).toHaveLength(0);
  });

  it('reads recent trades and refuses a limit above 60', async () => {
    venue.reply('GET /quote/v1/trades', { body: TRADES });
    const result = await client.market.trades({ symbol: 'BTC-SWAP-USDT', limit: 60 });
    expectPublicGet('/quote/v1/trades', { symbol: 'BTC-SWAP-USDT', limit: '60' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value[0]).toMatchObject({ time: 1757443158362, isBuyerMaker: false });
    expect(result.value[0]?.price.toString()).toBe('111054.8');
    expect(result.value[1]?.qty.toString()).toBe('3');
    venue.clear();
    const over = await client.market.trades({ symbol: 'BTC-SWAP-USDT', limit: 61 });
    expect(!over.ok && over.error.rule).toBe('limit-range');
    expect(venue.requests).toHaveLength(0);
  });

  it('names kline fields and derives the close time from the interval when the wire sends 0', async () => {
    venue.reply('GET /quote/v1/klines', { body: [KLINE] });
    const result = await client.market.klines({ symbol: 'BTC-SWAP-USDT', interval: '1m', startTime: 1757383200000, endTime: 1757383300000, limit: 2 });
    expectPublicGet('/quote/v1/klines', { symbol: 'BTC-SWAP-USDT', interval: '1m', startTime: '1757383200000', endTime: '1757383300000', limit: '2' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const k = result.value[0];
    expect(k?.openTime).toBe(1757383260000);
    expect(k?.closeTime).toBe(1757383260000 + 60_000 - 1);
    expect([k?.open, k?.high, k?.low, k?.close, k?.volume, k?.quoteVolume, k?.takerBuyVolume, k?.takerBuyQuoteVolume].map((d) => d?.toString())).toEqual([
      '111333.7', '111333.7', '111318.5', '111321.1', '22931', '2552863.1704', '8037', '894758.3915',
    ]);
    expect(k?.trades).toBe(42);
  });

  it('derives month and week close times, and keeps a real wire close time', async () => {
    const march = Date.UTC(2025, 2, 1);
    const monday = Date.UTC(2025, 8, 1);
    venue
      .reply('GET /quote/v1/klines', { body: [[march, '1', '1', '1', '1', '1', 0, '1', 1, '1', '1']] })
      .reply('GET /quote/v1/klines', { body: [[monday, '1', '1', '1', '1', '1', 0, '1', 1, '1', '1']] })
      .reply('GET /quote/v1/klines', { body: [[monday, '1', '1', '1', '1', '1', String(monday + 3_599_999), '1', '1', '1', '1']] });
    const month = await client.market.klines({ symbol: 'BTC-SWAP-USDT', interval: '1M' });
    expect(month.ok && month.value[0]?.closeTime).toBe(Date.UTC(2025, 3, 1) - 1);
    const week = await client.market.klines({ symbol: 'BTC-SWAP-USDT', interval: '1w' });
    expect(week.ok && week.value[0]?.closeTime).toBe(monday + 7 * 86_400_000 - 1);
    const real = await client.market.klines({ symbol: 'BTC-SWAP-USDT', interval: '1h' });
    expect(real.ok && real.value[0]?.closeTime).toBe(monday + 3_599_999);
  });

  it('refuses a bad kline interval, a limit over 1000 and a reversed time range', async () => {
    const badInterval = await client.market.klines({ symbol: 'BTC-SWAP-USDT', interval: '2m' as '1m' });
    expect(!badInterval.ok && [badInterval.error.rule, badInterval.error.field]).toEqual(['interval-value', 'interval']);
    const over = await client.market.klines({ symbol: 'BTC-SWAP-USDT', interval: '1h', limit: 1001 });
    expect(!over.ok && over.error.rule).toBe('limit-range');
    const reversed = await client.market.klines({ symbol: 'BTC-SWAP-USDT', interval: '1h', startTime: 2, endTime: 1 });
    expect(!reversed.ok && reversed.error.rule).toBe('time-range');
    const noSymbol = await client.market.klines({ symbol: '', interval: '1h' });
    expect(!noSymbol.ok && noSymbol.error.field).toBe('symbol');
    expect(venue.requests).toHaveLength(0);
  });

  it('reads index klines from the {code, data} body with from/to', async () => {
    venue.reply('GET /quote/v1/index/klines', { body: { code: 0, data: [INDEX_KLINE] } });
    const result = await client.market.indexKlines({ symbol: 'BTCUSDT', interval: '1m', from: 1757383200000, to: 1757383300000, limit: 2000 });
    expectPublicGet('/quote/v1/index/klines', { symbol: 'BTCUSDT', interval: '1m', from: '1757383200000', to: '1757383300000', limit: '2000' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value[0]).toMatchObject({ openTime: 1757383200000, symbol: 'BTCUSDT', symbolName: 'BTCUSDT', responseTime: 1757383265000 });
    expect(result.value[0]?.close.toString()).toBe('111321.1');
    venue.clear();
    const over = await client.market.indexKlines({ symbol: 'BTCUSDT', interval: '1m', from: 1, to: 2, limit: 2001 });
    expect(!over.ok && over.error.rule).toBe('limit-range');
    const badInterval = await client.market.indexKlines({ symbol: 'BTCUSDT', interval: '1y' as '1m', from: 1, to: 2 });
    expect(!badInterval.ok && badInterval.error.field).toBe('interval');
    const noFrom = await client.market.indexKlines({ symbol: 'BTCUSDT', interval: '1m', from: Number.NaN, to: 2 });
    expect(!noFrom.ok && noFrom.error.field).toBe('from');
    expect(venue.requests).toHaveLength(0);
  });

  it('reads mark-price klines from the {code, data} body', async () => {
    venue.reply('GET /quote/v1/markPrice/klines', { body: { code: 200, data: [MARK_KLINE] } });
    const result = await client.market.markPriceKlines({ symbol: 'BTC-SWAP-USDT', interval: '1m', from: 1757383200000, to: 1757383300000 });
    expectPublicGet('/quote/v1/markPrice/klines', { symbol: 'BTC-SWAP-USDT', interval: '1m', from: '1757383200000', to: '1757383300000' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value[0]).toMatchObject({ symbol: 'BTC-SWAP-USDT', time: 1757383200000, curId: '1757383200000', klineType: '1m' });
    expect(result.value[0]?.high.toString()).toBe('111340');
    expect(result.value[0]?.change?.toString()).toBe('-0.00012');
    venue.clear();
    const over = await client.market.markPriceKlines({ symbol: 'BTC-SWAP-USDT', interval: '1m', from: 1, to: 2, limit: 2001 });
    expect(!over.ok && over.error.rule).toBe('limit-range');
    expect(venue.requests).toHaveLength(0);
  });
});

describe('market data: index, mark price, funding', () => {
  it('reads index price components; an unknown index ({}) is undefined', async () => {
    venue.reply('GET /quote/v1/indexPriceComponents', {
      body: { index: '111300.5', edp: '111290.1', components: [{ exchange: 'binance', spotPair: 'BTCUSDT', weight: '0.5' }], time: 1757383265000 },
    });
    const result = await client.market.indexPriceComponents('BTCUSDT');
    expectPublicGet('/quote/v1/indexPriceComponents', { symbol: 'BTCUSDT' });
    expect(result.ok && result.value?.index.toString()).toBe('111300.5');
    expect(result.ok && result.value?.components[0]?.weight.toString()).toBe('0.5');
    venue.reply('GET /quote/v1/indexPriceComponents', { body: {} });
    expect(await client.market.indexPriceComponents('NOPE')).toEqual({ ok: true, value: undefined });
  });

  it('reads one mark price; an unknown symbol (200, empty body) is undefined, not a parse error', async () => {
    venue.reply('GET /quote/v1/markPrice', { body: MARK_PRICE });
    const result = await client.market.markPrice('BTC-SWAP-USDT');
    expectPublicGet('/quote/v1/markPrice', { symbol: 'BTC-SWAP-USDT' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ exchangeId: '301', symbolId: 'BTC-SWAP-USDT', time: 1670897454000 });
    expect(result.value?.price.toString()).toBe('17042.54471');
    venue.reply('GET /quote/v1/markPrice', { body: '' });
    expect(await client.market.markPrice('NOPE-SWAP-USDT')).toEqual({ ok: true, value: undefined });
  });

  it('reads every mark price as an array without a symbol', async () => {
    venue.reply('GET /quote/v1/markPrice', { body: [MARK_PRICE, { ...MARK_PRICE, symbolId: 'ETH-SWAP-USDT', price: '1200.5', time: '1670897454001' }] });
    const result = await client.market.markPrices();
    expectPublicGet('/quote/v1/markPrice');
    expect(result.ok && result.value.map((m) => [m.symbolId, m.price.toString(), m.time])).toEqual([
      ['BTC-SWAP-USDT', '17042.54471', 1670897454000],
      ['ETH-SWAP-USDT', '1200.5', 1670897454001],
    ]);
  });

  it('reads funding rates, with and without the newer fields, and surfaces -1130 for an unknown symbol', async () => {
    const { interest: _i, fundingRateCap: _c, fundingRateFloor: _f, ...old } = FUNDING;
    venue.reply('GET /api/v1/futures/fundingRate', { body: [FUNDING, { ...old, symbol: 'ETH-SWAP-USDT', period: '4H' }] });
    const result = await client.market.fundingRate();
    expectPublicGet('/api/v1/futures/fundingRate');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value[0]?.rate.toString()).toBe('0.0018099173553719');
    expect(result.value[0]?.fundingRateFloor?.toString()).toBe('-0.003');
    expect(result.value[0]).toMatchObject({ period: '8H', nextFundingTime: 1668427200000 });
    expect(result.value[1] !== undefined && 'interest' in result.value[1]).toBe(false);

    venue.reply('GET /api/v1/futures/fundingRate', { status: 400, body: { code: -1130, msg: "Data sent for paramter 'symbol' is not valid." } });
    const unknown = await client.market.fundingRate('NOPE-SWAP-USDT');
    expectPublicGet('/api/v1/futures/fundingRate', { symbol: 'NOPE-SWAP-USDT' });
    expect(!unknown.ok && [unknown.error.kind, unknown.error.code]).toEqual(['rejected', -1130]);
  });

  it('reads funding history with ids as strings and checks the 1..1000 limit', async () => {
    venue.reply('GET /api/v1/futures/historyFundingRate', { body: [FUNDING_HISTORY] });
    const result = await client.market.historyFundingRate({ symbol: 'BTC-SWAP-USDT', fromId: '915000', endId: '915300', limit: 1000 });
    expectPublicGet('/api/v1/futures/historyFundingRate', { symbol: 'BTC-SWAP-USDT', fromId: '915000', endId: '915300', limit: '1000' });
    expect(result.ok && result.value[0]).toMatchObject({ id: '915238', settleTime: 1757433600000, period: '8H' });
    expect(result.ok && result.value[0]?.settleRate.toString()).toBe('0.0001115358602744');
    venue.clear();
    for (const limit of [0, 1001]) {
      const bad = await client.market.historyFundingRate({ symbol: 'BTC-SWAP-USDT', limit });
      expect(!bad.ok && bad.error.rule).toBe('limit-range');
    }
    const badId = await client.market.historyFundingRate({ symbol: 'BTC-SWAP-USDT', fromId: 'abc' });
    expect(!badId.ok && badId.error.field).toBe('fromId');
    const noSymbol = await client.market.historyFundingRate({ symbol: '' });
    expect(!noSymbol.ok && noSymbol.error.field).toBe('symbol');
    expect(venue.requests).toHaveLength(0);
  });

  it('reads index prices keyed by index token; an unknown symbol gives empty maps', async () => {
    venue.reply('GET /quote/v1/index', { body: { index: { BTCUSDT: '111300.5' }, edp: { BTCUSDT: '111290.1' } } });
    const result = await client.market.index('BTCUSDT');
    expectPublicGet('/quote/v1/index', { symbol: 'BTCUSDT' });
    expect(result.ok && result.value.index['BTCUSDT']?.toString()).toBe('111300.5');
    expect(result.ok && result.value.edp?.['BTCUSDT']?.toString()).toBe('111290.1');
    venue.reply('GET /quote/v1/index', { body: { index: {}, edp: {} } });
    expect(await client.market.index()).toEqual({ ok: true, value: { index: {}, edp: {} } });
    expectPublicGet('/quote/v1/index');
  });
});

describe('market data: positioning, insurance, risk limits', () => {
  it('reads open interest', async () => {
    venue.reply('GET /quote/v1/openInterest', { body: { openInterestList: [{ symbol: 'BTC-SWAP-USDT', size: '458468.998' }] } });
    const result = await client.market.openInterest('BTC-SWAP-USDT');
    expectPublicGet('/quote/v1/openInterest', { symbol: 'BTC-SWAP-USDT' });
    expect(result.ok && result.value.map((o) => [o.symbol, o.size.toString()])).toEqual([['BTC-SWAP-USDT', '458468.998']]);
    const noSymbol = await client.market.openInterest('');
    expect(!noSymbol.ok && noSymbol.error.rule).toBe('mandatory-parameter');
  });

  it('reads the long/short ratio and checks period and limit', async () => {
    venue.reply('GET /quote/v1/globalLongShortAccountRatio', {
      body: [{ symbol: 'BTC-SWAP-USDT', timeStamp: 1757433600000, longShortRatio: '1.25', longAccount: '0.5556', shortAccount: '0.4444' }],
    });
    const result = await client.market.longShortRatio({ symbol: 'BTC-SWAP-USDT', period: '5m', limit: 500, startTime: 1757400000000, endTime: 1757433600000 });
    expectPublicGet('/quote/v1/globalLongShortAccountRatio', { symbol: 'BTC-SWAP-USDT', period: '5m', limit: '500', startTime: '1757400000000', endTime: '1757433600000' });
    expect(result.ok && result.value[0]?.timeStamp).toBe(1757433600000);
    expect(result.ok && result.value[0]?.longShortRatio.toString()).toBe('1.25');
    venue.clear();
    const badPeriod = await client.market.longShortRatio({ symbol: 'BTC-SWAP-USDT', period: '8h' as '4h' });
    expect(!badPeriod.ok && [badPeriod.error.rule, badPeriod.error.field]).toEqual(['period-value', 'period']);
    const over = await client.market.longShortRatio({ symbol: 'BTC-SWAP-USDT', period: '1d', limit: 501 });
    expect(!over.ok && over.error.rule).toBe('limit-range');
    expect(venue.requests).toHaveLength(0);
  });

  it('reads the insurance fund list', async () => {
    venue.reply('GET /api/v1/futures/insuranceBySymbol', { body: { list: [{ coin: 'USDT', symbol: 'BTC-SWAP-USDT', value: '1234567.89', updateTime: '1757376000000' }] } });
    const result = await client.market.insuranceFund('BTC-SWAP-USDT');
    expectPublicGet('/api/v1/futures/insuranceBySymbol', { symbol: 'BTC-SWAP-USDT' });
    expect(result.ok && result.value[0]).toMatchObject({ coin: 'USDT', updateTime: 1757376000000 });
    expect(result.ok && result.value[0]?.value.toString()).toBe('1234567.89');
  });

  it('reads risk limit levels', async () => {
    venue.reply('GET /api/v1/futures/riskLimits', {
      body: [{ level: 1, quantity: '42000', maintainMargin: '0.01', initialMargin: '0.02', maxLeverage: 50 }, { level: '2', quantity: '84000', maintainMargin: '0.02', initialMargin: '0.04', maxLeverage: '25' }],
    });
    const result = await client.market.riskLimits('BTC-SWAP-USDT');
    expectPublicGet('/api/v1/futures/riskLimits', { symbol: 'BTC-SWAP-USDT' });
    expect(result.ok && result.value.map((r) => [r.level, r.quantity.toString(), r.initialMargin.toString(), r.maxLeverage])).toEqual([
      [1, '42000', '0.02', 50],
      [2, '84000', '0.04', 25],
    ]);
  });
});

describe('market data: tickers', () => {
  it('reads contract 24h tickers with realtimeInterval; weight 1 with a symbol, 40 without', async () => {
    venue.always('GET /quote/v1/contract/ticker/24hr', { body: [TICKER_24H] });
    const result = await client.market.contractTicker24h({ symbol: 'BTC-SWAP-USDT', realtimeInterval: '1d+8' });
    expectPublicGet('/quote/v1/contract/ticker/24hr', { symbol: 'BTC-SWAP-USDT', realtimeInterval: '1d+8' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const t = result.value[0];
    expect(t).toMatchObject({ time: 1757452337074, symbol: 'BTC-SWAP-USDT' });
    expect([t?.lastPrice, t?.bestBid, t?.bestAsk, t?.volume, t?.quoteVolume, t?.priceChange, t?.priceChangePercent, t?.openInterest].map((d) => d?.toString())).toEqual([
      '111631.9', '111631.8', '111631.9', '60468626', '6768507258.5314', '-287.8', '-0.0026', '458468.998',
    ]);
    expect(await weightOf(() => client.market.contractTicker24h({ symbol: 'BTC-SWAP-USDT' }))).toBe(1);
    expect(await weightOf(() => client.market.contractTicker24h())).toBe(40);
    expectPublicGet('/quote/v1/contract/ticker/24hr');
    venue.clear();
    const bad = await client.market.contractTicker24h({ realtimeInterval: '7d' as '24h' });
    expect(!bad.ok && [bad.error.rule, bad.error.field]).toEqual(['realtimeInterval-value', 'realtimeInterval']);
    const blank = await client.market.contractTicker24h({ symbol: '' });
    expect(!blank.ok && blank.error.field).toBe('symbol');
    expect(venue.requests).toHaveLength(0);
  });

  it('reads contract price and book tickers', async () => {
    venue.reply('GET /quote/v1/contract/ticker/price', { body: [{ s: 'BTC-SWAP-USDT', p: '111399.3' }] });
    const price = await client.market.contractTickerPrice('BTC-SWAP-USDT');
    expectPublicGet('/quote/v1/contract/ticker/price', { symbol: 'BTC-SWAP-USDT' });
    expect(price.ok && price.value.map((p) => [p.symbol, p.price.toString()])).toEqual([['BTC-SWAP-USDT', '111399.3']]);

    venue.reply('GET /quote/v1/contract/ticker/bookTicker', { body: [{ t: 1757452337074, s: 'BTC-SWAP-USDT', b: '111631.8', bq: '120', a: '111631.9', aq: '75' }] });
    const book = await client.market.contractBookTicker();
    expectPublicGet('/quote/v1/contract/ticker/bookTicker');
    expect(book.ok && book.value[0]).toMatchObject({ time: 1757452337074, symbol: 'BTC-SWAP-USDT' });
    expect(book.ok && [book.value[0]?.bidPrice, book.value[0]?.bidQty, book.value[0]?.askPrice, book.value[0]?.askQty].map((d) => d?.toString())).toEqual([
      '111631.8', '120', '111631.9', '75',
    ]);
  });

  it('reads spot tickers (weight 40 without a symbol), tolerating a bare object for one symbol', async () => {
    const spot = { ...TICKER_24H, s: 'BTCUSDT', op: undefined };
    venue.always('GET /quote/v1/ticker/24hr', { body: [spot] });
    expect(await weightOf(() => client.market.spotTicker24h())).toBe(40);
    expectPublicGet('/quote/v1/ticker/24hr');
    const one = await client.market.spotTicker24h('BTCUSDT');
    expectPublicGet('/quote/v1/ticker/24hr', { symbol: 'BTCUSDT' });
    expect(one.ok && one.value[0]?.symbol).toBe('BTCUSDT');
    expect(one.ok && one.value[0] !== undefined && 'openInterest' in one.value[0]).toBe(false);

    venue.reply('GET /quote/v1/ticker/price', { body: { s: 'BTCUSDT', p: '111400.01' } });
    const price = await client.market.spotTickerPrice('BTCUSDT');
    expectPublicGet('/quote/v1/ticker/price', { symbol: 'BTCUSDT' });
    expect(price.ok && price.value.map((p) => p.price.toString())).toEqual(['111400.01']);

    venue.reply('GET /quote/v1/ticker/bookTicker', { body: [{ t: '1757452337074', s: 'BTCUSDT', b: '111400', bq: '0.5', a: '111400.02', aq: '1.25' }] });
    const book = await client.market.spotBookTicker();
    expectPublicGet('/quote/v1/ticker/bookTicker');
    expect(book.ok && book.value[0]?.askQty.toString()).toBe('1.25');
  });
});

describe('market data: malformed replies are errors with a field path, never throws or NaN', () => {
  /** Queues `body`, makes the call and reports the error's kind and field (`ok` when it did not fail). */
  async function malformed(route: string, body: unknown, call: () => Promise<Result<unknown, VenueError>>): Promise<{ kind: string; field: string | undefined }> {
    venue.reply(route, { body });
    return outcomeOf(client, call);
  }
  const btc = 'BTC-SWAP-USDT';

  it('names the offending depth field', async () => {
    const depth = (): ReturnType<ExchangeClient['market']['depth']> => client.market.depth({ symbol: btc });
    expect(await malformed('GET /quote/v1/depth', { ...DEPTH, b: [['abc', '1']] }, depth)).toEqual({ kind: 'malformed-response', field: 'b[0][0]' });
    expect(await malformed('GET /quote/v1/depth', { ...DEPTH, a: [['1', 'NaN']] }, depth)).toEqual({ kind: 'malformed-response', field: 'a[0][1]' });
    expect(await malformed('GET /quote/v1/depth', { ...DEPTH, b: 5 }, depth)).toEqual({ kind: 'malformed-response', field: 'b' });
    expect(await malformed('GET /quote/v1/depth', { ...DEPTH, a: [['1']] }, depth)).toEqual({ kind: 'malformed-response', field: 'a[0][1]' });
    expect(await malformed('GET /quote/v1/depth', { ...DEPTH, t: 'yesterday' }, depth)).toEqual({ kind: 'malformed-response', field: 't' });
    expect(await malformed('GET /quote/v1/depth', [], depth)).toEqual({ kind: 'malformed-response', field: '(root)' });
  });

  it('skips and counts a kline row of 5 elements and a wrongly typed trade count; a non-list reply is an error', async () => {
    const klines = (): ReturnType<ExchangeClient['market']['klines']> => client.market.klines({ symbol: btc, interval: '1m' });
    expect(await malformed('GET /quote/v1/klines', [KLINE, KLINE.slice(0, 5)], klines)).toEqual({ kind: 'skipped', field: '[1][5]' });
    venue.reply('GET /quote/v1/klines', { body: [KLINE, KLINE.slice(0, 5)] });
    const kept = await klines();
    expect(kept.ok && kept.value.length).toBe(1);
    expect(await malformed('GET /quote/v1/klines', [[...KLINE.slice(0, 8), 'many', ...KLINE.slice(9)]], klines)).toEqual({ kind: 'skipped', field: '[0][8]' });
    expect(await malformed('GET /quote/v1/klines', { data: [KLINE] }, klines)).toEqual({ kind: 'malformed-response', field: '(root)' });
  });

  it('rejects non-JSON and truncated bodies as malformed', async () => {
    for (const body of ['<html>oops</html>', '{"t":1757443224811,"b":[["111021.4"']) {
      venue.reply('GET /quote/v1/depth', { body });
      const result = await client.market.depth({ symbol: btc });
      expect(!result.ok && result.error.kind).toBe('malformed-response');
    }
  });

  it('names fields in trades, tickers, mark price, funding and index replies', async () => {
    expect(await malformed('GET /quote/v1/trades', 5, () => client.market.trades({ symbol: btc }))).toEqual({ kind: 'malformed-response', field: '(root)' });
    expect(await malformed('GET /quote/v1/trades', [{ ...TRADES[0], p: 'abc' }], () => client.market.trades({ symbol: btc }))).toEqual({ kind: 'skipped', field: '[0].p' });
    expect(await malformed('GET /quote/v1/trades', [{ ...TRADES[0], ibm: 'yes' }], () => client.market.trades({ symbol: btc }))).toEqual({ kind: 'skipped', field: '[0].ibm' });
    const { c: _c, ...noLast } = TICKER_24H;
    expect(await malformed('GET /quote/v1/contract/ticker/24hr', [noLast], () => client.market.contractTicker24h())).toEqual({ kind: 'skipped', field: '[0].c' });
    expect(await malformed('GET /quote/v1/markPrice', { ...MARK_PRICE, price: 'abc' }, () => client.market.markPrice(btc))).toEqual({ kind: 'malformed-response', field: 'price' });
    expect(await malformed('GET /quote/v1/markPrice', { ...MARK_PRICE, price: 'Infinity' }, () => client.market.markPrice(btc))).toEqual({ kind: 'malformed-response', field: 'price' });
    expect(await malformed('GET /api/v1/futures/fundingRate', [{ ...FUNDING, period: 'daily' }], () => client.market.fundingRate())).toEqual({ kind: 'skipped', field: '[0].period' });
    expect(await malformed('GET /api/v1/futures/historyFundingRate', [{ ...FUNDING_HISTORY, id: 'x1' }], () => client.market.historyFundingRate({ symbol: btc }))).toEqual({ kind: 'skipped', field: '[0].id' });
    expect(await malformed('GET /quote/v1/index', { index: { BTCUSDT: 'abc' }, edp: {} }, () => client.market.index())).toEqual({ kind: 'malformed-response', field: 'index.BTCUSDT' });
    expect(await malformed('GET /quote/v1/index/klines', { code: 0, data: [{ ...INDEX_KLINE, c: [] }] }, () => client.market.indexKlines({ symbol: 'BTCUSDT', interval: '1m', from: 1, to: 2 }))).toEqual({
      kind: 'skipped',
      // The path is where the list sits in the parsed value: `data` is unwrapped to the list itself.
      field: '[0].c',
    });
    expect(await malformed('GET /quote/v1/openInterest', [{ symbol: btc, size: '1' }], () => client.market.openInterest(btc))).toEqual({ kind: 'malformed-response', field: '(root)' });
    expect(await malformed('GET /api/v1/futures/riskLimits', [{ level: 1.5, quantity: '1', maintainMargin: '0.01', initialMargin: '0.02', maxLeverage: 50 }], () => client.market.riskLimits(btc))).toEqual({
      kind: 'skipped',
      field: '[0].level',
    });
  });

  it('skips and counts a contract whose needed fields are bad, naming the field, including inside filters', async () => {
    const info = (): ReturnType<ExchangeClient['market']['exchangeInfo']> => client.market.exchangeInfo();
    const badTick = { ...EXCHANGE_INFO, contracts: [{ ...CONTRACT, filters: [{ ...CONTRACT.filters[0], tickSize: 'abc' }] }] };
    expect(await malformed('GET /api/v1/exchangeInfo', badTick, info)).toEqual({ kind: 'skipped', field: 'contracts[0].filters[0].tickSize' });
    // A filter without a filterType is not one of the known filters: ignored, the contract kept.
    const noType = { ...EXCHANGE_INFO, contracts: [{ ...CONTRACT, filters: [...CONTRACT.filters, { minNotional: '10' }] }] };
    expect(await malformed('GET /api/v1/exchangeInfo', noType, info)).toEqual({ kind: 'ok', field: undefined });
    const badStatus = { ...EXCHANGE_INFO, contracts: [{ ...CONTRACT, status: 'HALTED' }] };
    expect(await malformed('GET /api/v1/exchangeInfo', badStatus, info)).toEqual({ kind: 'skipped', field: 'contracts[0].status' });
    const badMultiplier = { ...EXCHANGE_INFO, contracts: [CONTRACT, { ...CONTRACT, contractMultiplier: '' }] };
    expect(await malformed('GET /api/v1/exchangeInfo', badMultiplier, info)).toEqual({ kind: 'skipped', field: 'contracts[1].contractMultiplier' });
    venue.reply('GET /api/v1/exchangeInfo', { body: badMultiplier });
    const kept = await info();
    expect(kept.ok && kept.value.contracts.map((c) => c.symbol)).toEqual([CONTRACT.symbol]);
    const badRisk = { ...EXCHANGE_INFO, contracts: [{ ...CONTRACT, riskLimits: [{ ...CONTRACT.riskLimits[0], riskLimitId: 1.5 }] }] };
    expect(await malformed('GET /api/v1/exchangeInfo', badRisk, info)).toEqual({ kind: 'skipped', field: 'contracts[0].riskLimits[0].riskLimitId' });
    expect(await malformed('GET /api/v1/exchangeInfo', { ...EXCHANGE_INFO, coins: 'none' }, info)).toEqual({ kind: 'malformed-response', field: 'coins' });
    expect(await malformed('GET /api/v1/exchangeInfo', { ...EXCHANGE_INFO, contracts: {} }, info)).toEqual({ kind: 'malformed-response', field: 'contracts' });
    expect(await malformed('GET /api/v1/exchangeInfo', { ...EXCHANGE_INFO, serverTime: 'now' }, info)).toEqual({ kind: 'malformed-response', field: 'serverTime' });
  });
});
