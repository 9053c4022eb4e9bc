import { z } from 'zod';
import { symbolStatus } from '../wire/enums.js';
import { boolLike, decimal, epochMs, id64, intLike, optDecimal, text } from '../wire/schema.js';

/** GET /api/v1/exchangeInfo (document 001 "Exchange information", API-NOTES §5.1). */

const priceFilter = z.object({ filterType: z.literal('PRICE_FILTER'), minPrice: decimal, maxPrice: decimal, tickSize: decimal });
/** Coins, not contracts (API-NOTES §6.2): contract step = stepSize / contractMultiplier. */
const lotSize = z.object({ filterType: z.literal('LOT_SIZE'), minQty: decimal, maxQty: decimal, stepSize: decimal });
const minNotional = z.object({ filterType: z.literal('MIN_NOTIONAL'), minNotional: decimal });
const tradeAmount = z.object({ filterType: z.literal('TRADE_AMOUNT'), minAmount: decimal, maxAmount: decimal, minBuyPrice: decimal });
const limitTrading = z.object({
  filterType: z.literal('LIMIT_TRADING'),
  maxSellPrice: decimal,
  buyPriceUpRate: decimal,
  sellPriceDownRate: decimal,
  maxEntrustNum: intLike,
  maxConditionNum: intLike,
});
/** A market buy may not exceed the mark/latest price by buyPriceUpRate; a sell may not go below by sellPriceDownRate. */
const marketTrading = z.object({ filterType: z.literal('MARKET_TRADING'), buyPriceUpRate: decimal, sellPriceDownRate: decimal });
const openQuote = z.object({
  filterType: z.literal('OPEN_QUOTE'),
  noAllowMarketStartTime: epochMs,
  noAllowMarketEndTime: epochMs,
  limitOrderStartTime: epochMs,
  limitOrderEndTime: epochMs,
  limitMinPrice: decimal,
  limitMaxPrice: decimal,
});

export const symbolFilterSchema = z.discriminatedUnion('filterType', [priceFilter, lotSize, minNotional, tradeAmount, limitTrading, marketTrading, openQuote]);
export type SymbolFilter = z.output<typeof symbolFilterSchema>;
export type SymbolFilterType = SymbolFilter['filterType'];

const KNOWN_FILTERS: ReadonlySet<string> = new Set(symbolFilterSchema.options.map((o) => o.shape.filterType.value));

/**
 * The seven documented filters. A filter of a type added later is skipped rather than failing the
 * whole reply; a filter without a textual filterType is still an error. Error paths keep wire indexes.
 */
export const symbolFiltersSchema = z.array(z.unknown()).transform((items, ctx): SymbolFilter[] => {
  const out: SymbolFilter[] = [];
  for (const [i, item] of items.entries()) {
    if (isRecord(item) && typeof item['filterType'] === 'string' && !KNOWN_FILTERS.has(item['filterType'])) continue;
    const parsed = symbolFilterSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
    else for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [i, ...issue.path] });
  }
  return out;
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const contractRiskLimitSchema = z.object({
  riskLimitId: id64,
  quantity: decimal,
  initialMargin: decimal,
  maintMargin: decimal,
  isWhite: boolLike.optional(),
});
export type ContractRiskLimit = z.output<typeof contractRiskLimitSchema>;

/** A contract symbol. `indexToken` is `indexToken ?? index` (the key of GET /quote/v1/index, §5.1 RULE). */
export const contractSymbolSchema = z
  .object({
    filters: symbolFiltersSchema,
    exchangeId: id64,
    symbol: z.string(),
    symbolName: z.string(),
    status: symbolStatus,
    baseAsset: z.string(),
    baseAssetPrecision: decimal,
    quoteAsset: z.string(),
    quoteAssetPrecision: decimal,
    icebergAllowed: boolLike,
    inverse: boolLike,
    index: z.string(),
    indexToken: z.string().optional(),
    marginToken: z.string(),
    marginPrecision: decimal,
    /** Coins per contract. */
    contractMultiplier: decimal,
    underlying: z.string(),
    riskLimits: z.array(contractRiskLimitSchema),
    /** Category names ("New", "TradFi"); empty when none. */
    categories: z.array(z.string()),
    closingStartTime: epochMs.optional(),
    closingEndTime: epochMs.optional(),
    isRwa: boolLike.optional(),
    rwaType: z.string().optional(),
  })
  .transform((v) => ({ ...v, indexToken: v.indexToken ?? v.index }));
export type ContractSymbol = z.output<typeof contractSymbolSchema>;

export const spotSymbolSchema = z.object({
  filters: symbolFiltersSchema,
  exchangeId: id64,
  symbol: z.string(),
  symbolName: z.string(),
  status: symbolStatus,
  baseAsset: z.string(),
  baseAssetName: z.string(),
  baseAssetPrecision: decimal,
  quoteAsset: z.string(),
  quoteAssetName: z.string(),
  quotePrecision: decimal,
  icebergAllowed: boolLike,
  isAggregate: boolLike,
  allowMargin: boolLike,
});
export type SpotSymbol = z.output<typeof spotSymbolSchema>;

export const rateLimitType = z.enum(['REQUEST_WEIGHT', 'ORDERS', 'RAW_REQUESTS']);
export const rateLimitInterval = z.enum(['SECOND', 'MINUTE', 'HOUR', 'DAY']);

export const rateLimitSchema = z.object({
  rateLimitType,
  interval: rateLimitInterval,
  intervalUnit: intLike,
  limit: intLike,
  burst: intLike.optional(),
});
export type RateLimit = z.output<typeof rateLimitSchema>;

export const chainTypeSchema = z.object({
  chainType: z.string(),
  withdrawFee: decimal,
  minWithdrawQuantity: decimal,
  maxWithdrawQuantity: decimal,
  minDepositQuantity: optDecimal,
  allowDeposit: boolLike,
  allowWithdraw: boolLike,
});

export const coinSchema = z.object({
  orgId: text,
  coinId: z.string(),
  coinName: z.string(),
  coinFullName: z.string(),
  allowWithdraw: boolLike,
  allowDeposit: boolLike,
  chainTypes: z.array(chainTypeSchema),
  isVirtual: boolLike.optional(),
});
export type Coin = z.output<typeof coinSchema>;

/** `serverTime` is a string here live (a number in /api/v1/time); `rateLimits` is to be removed. */
export const exchangeInfoSchema = z.object({
  timezone: z.string(),
  serverTime: epochMs,
  symbols: z.array(spotSymbolSchema),
  contracts: z.array(contractSymbolSchema),
  rateLimits: z.array(rateLimitSchema).optional(),
  coins: z.array(coinSchema),
});
export type ExchangeInfo = z.output<typeof exchangeInfoSchema>;
