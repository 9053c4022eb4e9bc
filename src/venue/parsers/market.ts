import { z } from 'zod';
import { boolLike, decimal, epochMs, id64, intLike, optDecimal, text } from '../wire/schema.js';
import type { KlineInterval } from './market-params.js';
import { klineCloseTime } from './market-params.js';

/**
 * Public market-data payloads (document 001 "Market data shapes", API-NOTES §5.2–5.6). Terse wire
 * keys (`t`, `b`, `qv`…) become descriptive names; error paths still name the wire keys.
 */

/** A row list that some routes answer as a bare object when asked for one symbol. */
function rowsOf<T extends z.ZodType>(row: T) {
  return z.preprocess((value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? [value] : value), z.array(row));
}

/** `{code, data: [...]}` as sent by the index and mark-price kline routes; `data: null` is no rows. */
function dataRows<T extends z.ZodType>(row: T) {
  return z.object({ data: z.array(row).nullable() }).transform((v) => v.data ?? []);
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
export const tradesSchema = z.array(tradeSchema);

// ---- candles

const klineTuple = z.tuple([epochMs, decimal, decimal, decimal, decimal, decimal, epochMs, decimal, intLike, decimal, decimal]).rest(z.unknown());

/** Klines for `interval`: a wire close time of 0 (always, live) is derived from the interval. */
export function klinesSchema(interval: KlineInterval) {
  return z.array(
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
      trades,
      takerBuyVolume,
      takerBuyQuoteVolume,
    })),
  );
}
export type Kline = z.output<ReturnType<typeof klinesSchema>>[number];

export const indexKlineSchema = z
  .object({ t: epochMs, s: z.string(), sn: z.string(), o: decimal, h: decimal, l: decimal, c: decimal, v: decimal, st: epochMs })
  .transform((v) => ({ openTime: v.t, symbol: v.s, symbolName: v.sn, open: v.o, high: v.h, low: v.l, close: v.c, volume: v.v, responseTime: v.st }));
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
  volume: decimal,
  curId: text,
  klineType: z.string(),
  change: decimal,
});
export type MarkPriceKline = z.output<typeof markPriceKlineSchema>;
export const markPriceKlinesSchema = dataRows(markPriceKlineSchema);

// ---- index, mark price, funding

export const indexComponentSchema = z.object({ exchange: z.string(), spotPair: z.string(), weight: decimal });
export type IndexComponent = z.output<typeof indexComponentSchema>;

/** `index` is the last index price, `edp` the average of the last 10 minutes. */
export const indexPriceComponentsSchema = orNone(
  z.object({ index: decimal, edp: decimal, components: z.array(indexComponentSchema), time: epochMs }),
);
export type IndexPriceComponents = NonNullable<z.output<typeof indexPriceComponentsSchema>>;

/** Prices keyed by index token (`BTCUSDT`); both maps are empty for an unknown symbol. */
export const indexPricesSchema = z.object({ index: z.record(z.string(), decimal), edp: z.record(z.string(), decimal) });
export type IndexPrices = z.output<typeof indexPricesSchema>;

export const markPriceSchema = z.object({ exchangeId: id64, symbolId: z.string(), price: decimal, time: epochMs });
export type MarkPrice = z.output<typeof markPriceSchema>;
/** One symbol: an empty body (unknown symbol, live) becomes undefined. */
export const markPriceOneSchema = orNone(markPriceSchema);
export const markPriceListSchema = z.array(markPriceSchema);

/** Funding interval: `8H`, `4H`, `1H` seen. */
export const fundingPeriod = z.templateLiteral([z.number().int().positive(), 'H']);
export type FundingPeriod = z.output<typeof fundingPeriod>;

export const fundingRateSchema = z.object({
  symbol: z.string(),
  rate: decimal,
  period: fundingPeriod,
  nextFundingTime: epochMs,
  interest: optDecimal,
  fundingRateCap: optDecimal,
  fundingRateFloor: optDecimal,
});
export type FundingRate = z.output<typeof fundingRateSchema>;
export const fundingRatesSchema = rowsOf(fundingRateSchema);

/** Settled funding, newest first. */
export const fundingHistorySchema = z.object({ id: id64, symbol: z.string(), settleTime: epochMs, settleRate: decimal, period: fundingPeriod });
export type FundingHistoryRow = z.output<typeof fundingHistorySchema>;
export const fundingHistoryListSchema = z.array(fundingHistorySchema);

// ---- positioning, insurance, risk limits

/** Open interest in contracts. */
export const openInterestSchema = z.object({ symbol: z.string(), size: decimal });
export type OpenInterest = z.output<typeof openInterestSchema>;
export const openInterestListSchema = z.object({ openInterestList: z.array(openInterestSchema) }).transform((v) => v.openInterestList);

export const longShortRatioSchema = z.object({
  symbol: z.string(),
  timeStamp: epochMs,
  longShortRatio: decimal,
  longAccount: decimal,
  shortAccount: decimal,
});
export type LongShortRatio = z.output<typeof longShortRatioSchema>;
export const longShortRatiosSchema = z.array(longShortRatioSchema);

/** `value` is the fund's USD value. */
export const insuranceFundSchema = z.object({ coin: z.string(), symbol: z.string(), value: decimal, updateTime: epochMs });
export type InsuranceFund = z.output<typeof insuranceFundSchema>;
export const insuranceFundListSchema = z.object({ list: z.array(insuranceFundSchema) }).transform((v) => v.list);

/** Levels from 1, sorted by quantity. */
export const riskLimitLevelSchema = z.object({
  level: intLike,
  quantity: decimal,
  maintainMargin: decimal,
  initialMargin: decimal,
  maxLeverage: intLike,
});
export type RiskLimitLevel = z.output<typeof riskLimitLevelSchema>;
export const riskLimitLevelsSchema = z.array(riskLimitLevelSchema);

// ---- tickers

/** 24h ticker, contract or spot: `volume` in contracts for contracts, `priceChangePercent` a ratio. */
export const ticker24hSchema = z
  .object({
    t: epochMs,
    s: z.string(),
    c: decimal,
    o: decimal,
    h: decimal,
    l: decimal,
    b: decimal,
    a: decimal,
    v: decimal,
    qv: decimal,
    pc: decimal,
    pcp: decimal,
    op: optDecimal,
  })
  .transform((v) => ({
    time: v.t,
    symbol: v.s,
    lastPrice: v.c,
    open: v.o,
    high: v.h,
    low: v.l,
    bestBid: v.b,
    bestAsk: v.a,
    volume: v.v,
    quoteVolume: v.qv,
    priceChange: v.pc,
    priceChangePercent: v.pcp,
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
