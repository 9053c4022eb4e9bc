import type { ContractFilters } from '../engine/contract-filters.js';
import { contractFilters } from '../engine/contract-filters.js';
import type { SimInstrument } from '../market-stream/instruments.js';
import type { CoinRow } from '../wallet/coin-chains.js';
import { listedCoins } from '../wallet/coin-chains.js';
import { indexSources, indexTokenOf } from './index-tokens.js';

/**
 * GET /api/v1/exchangeInfo in its live form (API-NOTES §5.1): contracts with the seven filter types
 * from `contractFilters` (the values the engine enforces), risk limits, the live-only fields; a spot
 * symbol per index token; coins; rate limits. Everything but `serverTime` is fixed for an instrument
 * list, so it is built once.
 */
export const EXCHANGE_ID = '301';

type WireFilter = Readonly<Record<string, string>>;

export function filterRows(filters: ContractFilters): WireFilter[] {
  const { priceFilter, lotSize, tradeAmount, limitTrading, marketTrading } = filters;
  return [
    { minPrice: priceFilter.minPrice, maxPrice: priceFilter.maxPrice, tickSize: priceFilter.tickSize, filterType: 'PRICE_FILTER' },
    { minQty: lotSize.minQty, maxQty: lotSize.maxQty, stepSize: lotSize.stepSize, filterType: 'LOT_SIZE' },
    { minNotional: filters.minNotional, filterType: 'MIN_NOTIONAL' },
    { minAmount: tradeAmount.minAmount, maxAmount: tradeAmount.maxAmount, minBuyPrice: tradeAmount.minBuyPrice, filterType: 'TRADE_AMOUNT' },
    {
      maxSellPrice: limitTrading.maxSellPrice,
      buyPriceUpRate: limitTrading.buyPriceUpRate,
      sellPriceDownRate: limitTrading.sellPriceDownRate,
      maxEntrustNum: limitTrading.maxEntrustNum,
      maxConditionNum: limitTrading.maxConditionNum,
      filterType: 'LIMIT_TRADING',
    },
    { buyPriceUpRate: marketTrading.buyPriceUpRate, sellPriceDownRate: marketTrading.sellPriceDownRate, filterType: 'MARKET_TRADING' },
    {
      noAllowMarketStartTime: '0',
      noAllowMarketEndTime: '0',
      limitOrderStartTime: '0',
      limitOrderEndTime: '0',
      limitMinPrice: '0',
      limitMaxPrice: '0',
      filterType: 'OPEN_QUOTE',
    },
  ];
}

function contractRow(instrument: SimInstrument): Record<string, unknown> {
  return {
    filters: filterRows(contractFilters(instrument)),
    exchangeId: EXCHANGE_ID,
    symbol: instrument.symbol,
    symbolName: instrument.symbol,
    status: 'TRADING',
    baseAsset: instrument.symbol,
    baseAssetPrecision: instrument.contractMultiplier,
    quoteAsset: instrument.category,
    quoteAssetPrecision: instrument.tickSize,
    icebergAllowed: false,
    inverse: false,
    index: instrument.baseAsset,
    indexToken: indexTokenOf(instrument),
    marginToken: instrument.category,
    marginPrecision: '0.0001',
    contractMultiplier: instrument.contractMultiplier,
    underlying: instrument.baseAsset,
    riskLimits: instrument.riskLimits.map((tier) => ({
      riskLimitId: tier.riskLimitId,
      quantity: tier.maxQuantity,
      initialMargin: tier.initialMarginRate,
      maintMargin: tier.maintMarginRate,
      isWhite: false,
    })),
    categories: [],
    closingStartTime: '0',
    closingEndTime: '0',
    isRwa: false,
  };
}

/** The spot pair of an index token, with the tracking contract's filters (coins, so they carry over). */
function spotRow(token: string, instrument: SimInstrument): Record<string, unknown> {
  const filters = contractFilters(instrument);
  return {
    filters: filterRows(filters),
    exchangeId: EXCHANGE_ID,
    symbol: token,
    symbolName: token,
    status: 'TRADING',
    baseAsset: instrument.baseAsset,
    baseAssetName: instrument.baseAsset,
    baseAssetPrecision: filters.lotSize.stepSize,
    quoteAsset: instrument.category,
    quoteAssetName: instrument.category,
    quotePrecision: instrument.tickSize,
    icebergAllowed: false,
    isAggregate: false,
    allowMargin: true,
  };
}

/** An exchangeInfo `coins` row (API-NOTES §5.1); the chains are the simulated wallet's. */
function coinRow(row: CoinRow): Record<string, unknown> {
  return {
    orgId: '9001',
    coinId: row.coin,
    coinName: row.coin,
    coinFullName: row.fullName,
    allowWithdraw: row.chains.some((c) => c.allowWithdraw),
    allowDeposit: row.chains.some((c) => c.allowDeposit),
    chainTypes: row.chains,
    isVirtual: false,
  };
}

export const RATE_LIMITS = [
  { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalUnit: 1, limit: 3000, burst: 3000 },
  { rateLimitType: 'ORDERS', interval: 'SECOND', intervalUnit: 2, limit: 60 },
] as const;

/** The reply without `serverTime`; `exchangeInfoReply` adds it per request. */
export interface ExchangeInfoBody {
  readonly timezone: 'UTC';
  readonly brokerFilters: readonly never[];
  readonly symbols: readonly Record<string, unknown>[];
  readonly rateLimits: typeof RATE_LIMITS;
  readonly options: readonly never[];
  readonly contracts: readonly Record<string, unknown>[];
  readonly coins: readonly Record<string, unknown>[];
}

export function exchangeInfoBody(instruments: readonly SimInstrument[]): ExchangeInfoBody {
  const coins = listedCoins(instruments.flatMap((i) => [i.category, i.baseAsset]));
  return {
    timezone: 'UTC',
    brokerFilters: [],
    symbols: [...indexSources(instruments)].map(([token, instrument]) => spotRow(token, instrument)),
    rateLimits: RATE_LIMITS,
    options: [],
    contracts: instruments.map(contractRow),
    coins: coins.map(coinRow),
  };
}

/** `serverTime` is a string here (a number in /api/v1/time), keys in the live order. */
export function exchangeInfoReply(body: ExchangeInfoBody, now: number): Record<string, unknown> {
  return {
    timezone: body.timezone,
    serverTime: String(now),
    brokerFilters: body.brokerFilters,
    symbols: body.symbols,
    rateLimits: body.rateLimits,
    options: body.options,
    contracts: body.contracts,
    coins: body.coins,
  };
}
