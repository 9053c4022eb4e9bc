import { z } from 'zod';
import { symbolStatus } from '../../protocol/wire-enums.js';
import { boolLike, decimal, epochMs, id64, intLike, optDecimal, text } from '../wire/schema.js';
import { tolerantList } from '../wire/tolerant-list.js';

/** GET /api/v1/exchangeInfo (document 001 "Exchange information", API-NOTES §5.1). */

/**
 * Filters, read by the parsing rule (README "The exchange client"): the fields instrument-mapping.ts
 * turns into an Instrument are required, every other field is optional, unknown fields are ignored.
 */
const priceFilter = z.object({ filterType: z.literal('PRICE_FILTER'), minPrice: decimal, maxPrice: decimal, tickSize: decimal });
/** Coins, not contracts (API-NOTES §6.2): contract step = stepSize / contractMultiplier. */
const lotSize = z.object({ filterType: z.literal('LOT_SIZE'), minQty: decimal, maxQty: decimal, stepSize: decimal });
const minNotional = z.object({ filterType: z.literal('MIN_NOTIONAL'), minNotional: decimal });
const tradeAmount = z.object({ filterType: z.literal('TRADE_AMOUNT'), minAmount: decimal, maxAmount: decimal, minBuyPrice: optDecimal });
/** Live spot symbols send this without maxEntrustNum and maxConditionNum (then no open-order caps are known). */
const limitTrading = z.object({
  filterType: z.literal('LIMIT_TRADING'),
  maxSellPrice: optDecimal,
  buyPriceUpRate: decimal,
  sellPriceDownRate: decimal,
  maxEntrustNum: intLike.optional(),
  maxConditionNum: intLike.optional(),
});
/** A market buy may not exceed the mark/latest price by buyPriceUpRate; a sell may not go below by sellPriceDownRate. */
const marketTrading = z.object({ filterType: z.literal('MARKET_TRADING'), buyPriceUpRate: decimal, sellPriceDownRate: decimal });
/** Pre-market quoting windows: nothing of it is used, so nothing of it is required. */
const openQuote = z.object({
  filterType: z.literal('OPEN_QUOTE'),
  noAllowMarketStartTime: epochMs.optional(),
  noAllowMarketEndTime: epochMs.optional(),
  limitOrderStartTime: epochMs.optional(),
  limitOrderEndTime: epochMs.optional(),
  limitMinPrice: optDecimal,
  limitMaxPrice: optDecimal,
});

export const symbolFilterSchema = z.discriminatedUnion('filterType', [priceFilter, lotSize, minNotional, tradeAmount, limitTrading, marketTrading, openQuote]);
export type SymbolFilter = z.output<typeof symbolFilterSchema>;
export type SymbolFilterType = SymbolFilter['filterType'];

const KNOWN_FILTERS: ReadonlySet<string> = new Set(symbolFilterSchema.options.map((o) => o.shape.filterType.value));

/**
 * The seven documented filters. A filter of another type (or without a textual filterType) is skipped
 * rather than failing its symbol; a known filter without a field stratd needs fails its symbol, which
 * the symbol list then skips and counts. Error paths keep wire indexes.
 */
export const symbolFiltersSchema = z.array(z.unknown()).transform((items, ctx): SymbolFilter[] => {
  const out: SymbolFilter[] = [];
  for (const [i, item] of items.entries()) {
    if (!isRecord(item) || typeof item['filterType'] !== 'string' || !KNOWN_FILTERS.has(item['filterType'])) continue;
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

/**
 * A contract symbol. Required: what instrument-mapping.ts, the index-token map and the recorder's risk
 * tiers read (symbol, status, underlying, marginToken, contractMultiplier, filters, riskLimits, the
 * index token); the rest is optional. `indexToken` is `indexToken ?? index` (the key of GET
 * /quote/v1/index, §5.1 RULE); one of them is required.
 */
export const contractSymbolSchema = z
  .object({
    filters: symbolFiltersSchema,
    exchangeId: id64.optional(),
    symbol: z.string().min(1),
    symbolName: z.string().optional(),
    status: symbolStatus,
    baseAsset: z.string().optional(),
    baseAssetPrecision: optDecimal,
    quoteAsset: z.string().optional(),
    quoteAssetPrecision: optDecimal,
    icebergAllowed: boolLike.optional(),
    inverse: boolLike.optional(),
    index: z.string().optional(),
    indexToken: z.string().optional(),
    marginToken: z.string(),
    marginPrecision: optDecimal,
    /** Coins per contract. */
    contractMultiplier: decimal,
    underlying: z.string(),
    riskLimits: z.array(contractRiskLimitSchema),
    /** Category names ("New", "TradFi"); empty when none. */
    categories: z.array(z.string()).optional(),
    closingStartTime: epochMs.optional(),
    closingEndTime: epochMs.optional(),
    isRwa: boolLike.optional(),
    rwaType: z.string().optional(),
  })
  .transform(({ index, indexToken, ...v }, ctx) => {
    const token = indexToken ?? index;
    if (token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['indexToken'], message: 'expected indexToken (or index)' });
      return z.NEVER;
    }
    return { ...v, ...(index === undefined ? {} : { index }), indexToken: token };
  });
export type ContractSymbol = z.output<typeof contractSymbolSchema>;

/** A spot symbol: stratd trades contracts only, so a spot symbol needs no more than its name and readable filters. */
export const spotSymbolSchema = z.object({
  filters: symbolFiltersSchema,
  exchangeId: id64.optional(),
  symbol: z.string().min(1),
  symbolName: z.string().optional(),
  status: symbolStatus.optional(),
  baseAsset: z.string().optional(),
  baseAssetName: z.string().optional(),
  baseAssetPrecision: optDecimal,
  quoteAsset: z.string().optional(),
  quoteAssetName: z.string().optional(),
  quotePrecision: optDecimal,
  icebergAllowed: boolLike.optional(),
  isAggregate: boolLike.optional(),
  allowMargin: boolLike.optional(),
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

/** Coins and chains are not used by stratd: only the coin's id is required. */
export const chainTypeSchema = z.object({
  chainType: z.string(),
  withdrawFee: optDecimal,
  minWithdrawQuantity: optDecimal,
  maxWithdrawQuantity: optDecimal,
  minDepositQuantity: optDecimal,
  allowDeposit: boolLike.optional(),
  allowWithdraw: boolLike.optional(),
});

export const coinSchema = z.object({
  orgId: text.optional(),
  coinId: z.string().min(1),
  coinName: z.string().optional(),
  coinFullName: z.string().optional(),
  allowWithdraw: boolLike.optional(),
  allowDeposit: boolLike.optional(),
  chainTypes: tolerantList(chainTypeSchema).optional(),
  isVirtual: boolLike.optional(),
});
export type Coin = z.output<typeof coinSchema>;

/**
 * `serverTime` is a string here live (a number in /api/v1/time); `rateLimits` is to be removed. Each list
 * is tolerant: a spot symbol, contract, rate limit or coin stratd cannot read is skipped and counted.
 * `contracts` is required (stratd trades them); the other lists may be absent.
 */
export const exchangeInfoSchema = z.object({
  timezone: z.string().optional(),
  serverTime: epochMs.optional(),
  symbols: tolerantList(spotSymbolSchema).optional(),
  contracts: tolerantList(contractSymbolSchema),
  rateLimits: tolerantList(rateLimitSchema).optional(),
  coins: tolerantList(coinSchema).optional(),
});
export type ExchangeInfo = z.output<typeof exchangeInfoSchema>;
