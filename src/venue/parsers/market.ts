import { z } from 'zod';
import { boolLike, decimal, epochMs, id64, intLike, optDecimal, text } from '../wire/schema.js';
import { tolerantList } from '../wire/tolerant-list.js';
import type { KlineInterval } from '../../protocol/market-params.js';
import { klineCloseTime } from '../../protocol/market-params.js';

/**
 * Public market-data payloads (document 001 "Market data shapes", API-NOTES §5.2–5.6). Terse wire
 * keys (`t`, `b`, `qv`…) become descriptive names; error paths still name the wire keys. By the parsing
 * rule (README "The exchange client"): a field the daemon reads is required, with the row's identity and
 * the value the endpoint exists for; other fields are optional; list rows that fail are skipped and counted.
 */

/** A row list that some routes answer as a bare object when asked for one symbol. */
function rowsOf<T extends z.ZodType>(row: T) {
  return z.preprocess((value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? [value] : value), tolerantList(row));
}

/** `{code, data: [...]}` as sent by the index and mark-price kline routes; `data: null` is no rows. */
function dataRows<T extends z.ZodType>(row: T) {
  return z.object({ data: tolerantList(row).nullable() }).transform((v) => v.data ?? []);
}

/** An empty reply (no body, or `{}`) means the symbol is unknown (API-NOTES §3 live quirks). */
function orNone<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (isEmptyObject(value) ? undefined : value), schema.optional());
}

function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

// ---- order book, trades

/** `[price, quantity]`; further elements are ignored. */
export const bookLevelSchema = z.tuple([decimal, decimal]).rest(z.unknown()).transform(([price, qty]) => ({ price, qty }));
export type BookLevel = z.output<typeof bookLevelSchema>;

/** Order book: bids high to low, asks low to high, sizes in contracts. */
export const orderBookSchema = z
  .object({ t: epochMs, b: z.array(bookLevelSchema), a: z.array(bookLevelSchema) })
  .transform((v) => ({ time: v.t, bids: v.b, asks: v.a }));
export type OrderBook = z.output<typeof orderBookSchema>;

export const tradeSchema = z
  .object({ t: epochMs, p: decimal, q: decimal, ibm: boolLike })
  .transform((v) => ({ time: v.t, price: v.p, qty: v.q, isBuyerMaker: v.ibm }));
export type PublicTrade = z.output<typeof tradeSchema>;
export const tradesSchema = tolerantList(tradeSchema);

// ---- candles

/** open time, OHLC, volume, close time, quote volume, trade count, taker buy volume and quote volume; the last four may be absent. */
const klineTuple = z.tuple([epochMs, decimal, decimal, decimal, decimal, decimal, epochMs, decimal, intLike.optional(), optDecimal, optDecimal]).rest(z.unknown());

/** Klines for `interval`: a wire close time of 0 (always, live) is derived from the interval. */
export function klinesSchema(interval: KlineInterval) {
  return tolerantList(
    klineTuple.transform(([openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBuyVolume, takerBuyQuoteVolume]) => ({
      openTime,
      open,
      high,
      low,
      close,
      /** Contracts. */
      volume,
      closeTime: closeTime > 0 ? closeTime : klineCloseTime(openTime, interval),
      quoteVolume,
      ...(trades === undefined ? {} : { trades }),
      ...(takerBuyVolume === undefined ? {} : { takerBuyVolume }),
      ...(takerBuyQuoteVolume === undefined ? {} : { takerBuyQuoteVolume }),
    })),
  );
}
export type Kline = z.output<ReturnType<typeof klinesSchema>>[number];

export const indexKlineSchema = z
  .object({ t: epochMs, s: z.string(), sn: z.string().optional(), o: decimal, h: decimal, l: decimal, c: decimal, v: optDecimal, st: epochMs.optional() })
  .transform((v) => ({
    openTime: v.t,
    symbol: v.s,
    ...(v.sn === undefined ? {} : { symbolName: v.sn }),
    open: v.o,
    high: v.h,
    low: v.l,
    close: v.c,
    ...(v.v === undefined ? {} : { volume: v.v }),
    ...(v.st === undefined ? {} : { responseTime: v.st }),
  }));
export type IndexKline = z.output<typeof indexKlineSchema>;
export const indexKlinesSchema = dataRows(indexKlineSchema);

/** `change` is (index price − mark price) / mark price. */
export const markPriceKlineSchema = z.object({
  symbol: z.string(),
  time: epochMs,
  open: decimal,
  high: decimal,
  low: decimal,
  close: decimal,
  volume: optDecimal,
  curId: text.optional(),
  klineType: z.string().optional(),
  change: optDecimal,
});
export type MarkPriceKline = z.output<typeof markPriceKlineSchema>;
export const markPriceKlinesSchema = dataRows(markPriceKlineSchema);

// ---- index, mark price, funding

export const indexComponentSchema = z.object({ exchange: z.string(), spotPair: z.string().optional(), weight: decimal });
export type IndexComponent = z.output<typeof indexComponentSchema>;

/** `index` is the last index price, `edp` the average of the last 10 minutes. */
export const indexPriceComponentsSchema = orNone(
  z.object({ index: decimal, edp: optDecimal, components: tolerantList(indexComponentSchema), time: epochMs }),
);
export type IndexPriceComponents = NonNullable<z.output<typeof indexPriceComponentsSchema>>;

/** Prices keyed by index token (`BTCUSDT`); both maps are empty for an unknown symbol. */
export const indexPricesSchema = z.object({ index: z.record(z.string(), decimal), edp: z.record(z.string(), decimal).optional() });
export type IndexPrices = z.output<typeof indexPricesSchema>;

export const markPriceSchema = z.object({ exchangeId: id64.optional(), symbolId: z.string(), price: decimal, time: epochMs });
export type MarkPrice = z.output<typeof markPriceSchema>;
/** One symbol: an empty body (unknown symbol, live) becomes undefined. */
export const markPriceOneSchema = orNone(markPriceSchema);
export const markPriceListSchema = tolerantList(markPriceSchema);

/** Funding interval: `8H`, `4H`, `1H` seen. */
export const fundingPeriod = z.templateLiteral([z.number().int().positive(), 'H']);
export type FundingPeriod = z.output<typeof fundingPeriod>;

/** Live rows may have no `period` (issue 16): only symbol, rate and nextFundingTime are read. */
export const fundingRateSchema = z.object({
  symbol: z.string(),
  rate: decimal,
  period: fundingPeriod.optional(),
  nextFundingTime: epochMs,
  interest: optDecimal,
  fundingRateCap: optDecimal,
  fundingRateFloor: optDecimal,
});
export type FundingRate = z.output<typeof fundingRateSchema>;
export const fundingRatesSchema = rowsOf(fundingRateSchema);

/** Settled funding, newest first. */
export const fundingHistorySchema = z.object({ id: id64, symbol: z.string(), settleTime: epochMs, settleRate: decimal, period: fundingPeriod.optional() });
export type FundingHistoryRow = z.output<typeof fundingHistorySchema>;
export const fundingHistoryListSchema = tolerantList(fundingHistorySchema);

// ---- positioning, insurance, risk limits

/** Open interest in contracts. */
export const openInterestSchema = z.object({ symbol: z.string(), size: decimal });
export type OpenInterest = z.output<typeof openInterestSchema>;
export const openInterestListSchema = z.object({ openInterestList: tolerantList(openInterestSchema) }).transform((v) => v.openInterestList);

export const longShortRatioSchema = z.object({
  symbol: z.string(),
  timeStamp: epochMs,
  longShortRatio: decimal,
  longAccount: optDecimal,
  shortAccount: optDecimal,
});
export type LongShortRatio = z.output<typeof longShortRatioSchema>;
export const longShortRatiosSchema = tolerantList(longShortRatioSchema);

/** `value` is the fund's USD value. */
export const insuranceFundSchema = z.object({ coin: z.string().optional(), symbol: z.string(), value: decimal, updateTime: epochMs.optional() });
export type InsuranceFund = z.output<typeof insuranceFundSchema>;
export const insuranceFundListSchema = z.object({ list: tolerantList(insuranceFundSchema) }).transform((v) => v.list);

/** Levels from 1, sorted by quantity. */
export const riskLimitLevelSchema = z.object({
  level: intLike,
  quantity: decimal,
  maintainMargin: decimal,
  initialMargin: decimal,
  maxLeverage: intLike,
});
export type RiskLimitLevel = z.output<typeof riskLimitLevelSchema>;
export const riskLimitLevelsSchema = tolerantList(riskLimitLevelSchema);

// ---- tickers

/**
 * 24h ticker, contract or spot: `volume` in contracts for contracts, `priceChangePercent` a ratio. Live
 * rows of illiquid symbols have no `b`/`a` (issue 16): the best bid and ask are optional, as are the
 * changes the daemon does not read.
 */
export const ticker24hSchema = z
  .object({
    t: epochMs,
    s: z.string(),
    c: decimal,
    o: decimal,
    h: decimal,
    l: decimal,
    b: optDecimal,
    a: optDecimal,
    v: decimal,
    qv: decimal,
    pc: optDecimal,
    pcp: optDecimal,
    op: optDecimal,
  })
  .transform((v) => ({
    time: v.t,
    symbol: v.s,
    lastPrice: v.c,
    open: v.o,
    high: v.h,
    low: v.l,
    ...(v.b === undefined ? {} : { bestBid: v.b }),
    ...(v.a === undefined ? {} : { bestAsk: v.a }),
    volume: v.v,
    quoteVolume: v.qv,
    ...(v.pc === undefined ? {} : { priceChange: v.pc }),
    ...(v.pcp === undefined ? {} : { priceChangePercent: v.pcp }),
    /** Undocumented; open interest in contracts (PROBE). */
    ...(v.op === undefined ? {} : { openInterest: v.op }),
  }));
export type Ticker24h = z.output<typeof ticker24hSchema>;
export const tickers24hSchema = rowsOf(ticker24hSchema);

export const priceTickerSchema = z.object({ s: z.string(), p: decimal }).transform((v) => ({ symbol: v.s, price: v.p }));
export type PriceTicker = z.output<typeof priceTickerSchema>;
export const priceTickersSchema = rowsOf(priceTickerSchema);

export const bookTickerSchema = z
  .object({ t: epochMs, s: z.string(), b: decimal, bq: decimal, a: decimal, aq: decimal })
  .transform((v) => ({ time: v.t, symbol: v.s, bidPrice: v.b, bidQty: v.bq, askPrice: v.a, askQty: v.aq }));
export type BookTicker = z.output<typeof bookTickerSchema>;
export const bookTickersSchema = rowsOf(bookTickerSchema);

/** `GET /api/v1/time`: a number here (a string in exchangeInfo). */
export const serverTimeSchema = z.object({ serverTime: epochMs });

/** `GET /api/v1/ping` answers `{}`. */
export const pingSchema = z.object({}).optional();
