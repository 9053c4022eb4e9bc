import type { z } from 'zod';
import { orderedParams } from '../../core/ordered-params.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import { callParsed } from '../call-parsed.js';
import { depthWeight, ENDPOINTS, endpointLabel, tickerWeight } from '../../protocol/endpoints.js';
import type { EndpointDef } from '../../protocol/endpoints.js';
import { readBookTickers } from '../parsers/book-ticker-rows.js';
import { readTickers24h } from '../parsers/ticker24h-rows.js';
import { exchangeInfoSchema } from '../parsers/exchange-info.js';
import type { ExchangeInfo } from '../parsers/exchange-info.js';
import {
  bookTickersSchema,
  fundingHistoryListSchema,
  fundingRatesSchema,
  indexKlinesSchema,
  indexPriceComponentsSchema,
  indexPricesSchema,
  insuranceFundListSchema,
  klinesSchema,
  longShortRatiosSchema,
  markPriceKlinesSchema,
  markPriceListSchema,
  markPriceOneSchema,
  openInterestListSchema,
  orderBookSchema,
  pingSchema,
  priceTickersSchema,
  riskLimitLevelsSchema,
  serverTimeSchema,
  tickers24hSchema,
  tradesSchema,
} from '../parsers/market.js';
import type {
  BookTicker,
  FundingHistoryRow,
  FundingRate,
  IndexKline,
  IndexPriceComponents,
  IndexPrices,
  InsuranceFund,
  Kline,
  LongShortRatio,
  MarkPrice,
  MarkPriceKline,
  OpenInterest,
  OrderBook,
  PriceTicker,
  PublicTrade,
  RiskLimitLevel,
  Ticker24h,
} from '../parsers/market.js';
import { DEPTH_LIMITS, klineInterval, longShortPeriod, realtimeInterval } from '../../protocol/market-params.js';
import type { KlineInterval, LongShortPeriod, RealtimeInterval } from '../../protocol/market-params.js';
import type { RequestTrace, RestCaller } from '../rest-transport.js';
import { tracedCaller } from '../rest-transport.js';
import type { Check } from '../validate.js';
import { firstViolation, limitInRange, requireText } from '../validate.js';
import { invalidRequest } from '../venue-error.js';
import type { VenueError } from '../venue-error.js';

export interface DepthQuery {
  readonly symbol: string;
  /** 5, 10, 20, 50, 100 (weight 1, default 100), 500 (weight 5), 1000 or 0 ("a large amount", weight 10). */
  readonly limit?: number;
}

export interface MergedDepthQuery {
  readonly symbol: string;
  /** Price gear, 0 to 5 (0 is gear 1). */
  readonly scale?: number;
  /** The spec gives no range; 1 to 1000 is accepted. */
  readonly limit?: number;
}

export interface TradesQuery {
  readonly symbol: string;
  /** 1 to 60, default 60. */
  readonly limit?: number;
}

export interface KlinesQuery {
  readonly symbol: string;
  readonly interval: KlineInterval;
  /** Without startTime and endTime only the latest kline is returned. */
  readonly startTime?: number;
  readonly endTime?: number;
  /** 1 to 1000, default 1000. */
  readonly limit?: number;
}

/** Index and mark-price klines: `from` and `to` are required. */
export interface PriceKlinesQuery {
  readonly symbol: string;
  readonly interval: KlineInterval;
  readonly from: number;
  readonly to: number;
  /** 1 to 2000, default 2000. */
  readonly limit?: number;
}

export interface FundingHistoryQuery {
  readonly symbol: string;
  readonly fromId?: string;
  readonly endId?: string;
  /** 1 to 1000, default 20. */
  readonly limit?: number;
}

export interface LongShortQuery {
  readonly symbol: string;
  readonly period: LongShortPeriod;
  /** 1 to 500, default 30. */
  readonly limit?: number;
  /** Only the latest 30 days exist; without times the most recent data is returned. */
  readonly startTime?: number;
  readonly endTime?: number;
}

export interface ContractTicker24hQuery {
  /** Omit for every symbol (weight 40 instead of 1). */
  readonly symbol?: string;
  readonly realtimeInterval?: RealtimeInterval;
}

const MAX_TRADES = 60;
const MAX_KLINES = 1000;
const MAX_PRICE_KLINES = 2000;
const MAX_FUNDING_HISTORY = 1000;
const MAX_LONG_SHORT = 500;
const MAX_DEPTH_SCALE = 5;

/** Public market data (document 001): no signature, weights by parameters where the spec says so. */
export class MarketApi {
  constructor(private readonly rest: RestCaller) {}

  /** The same API whose requests carry `trace` (latency figures). */
  traced(trace: RequestTrace): MarketApi {
    return new MarketApi(tracedCaller(this.rest, trace));
  }

  /** GET /api/v1/ping: connectivity check. */
  async ping(): Promise<Result<void, VenueError>> {
    const reply = await callParsed(this.rest, { endpoint: ENDPOINTS.ping }, pingSchema);
    return reply.ok ? ok(undefined) : reply;
  }

  /** GET /api/v1/time: the server's clock in epoch ms. */
  async serverTime(): Promise<Result<number, VenueError>> {
    const reply = await callParsed(this.rest, { endpoint: ENDPOINTS.time }, serverTimeSchema);
    return reply.ok ? ok(reply.value.serverTime) : reply;
  }

  /** GET /api/v1/exchangeInfo: spot symbols, contracts with filters and risk limits, rate limits, coins. */
  async exchangeInfo(): Promise<Result<ExchangeInfo, VenueError>> {
    return callParsed(this.rest, { endpoint: ENDPOINTS.exchangeInfo }, exchangeInfoSchema);
  }

  /** GET /api/v1/auth/exchangeInfo: the same reply, signed (document 000 change history); needs credentials. */
  async exchangeInfoSigned(): Promise<Result<ExchangeInfo, VenueError>> {
    return callParsed(this.rest, { endpoint: ENDPOINTS.authExchangeInfo }, exchangeInfoSchema);
  }

  /** GET /quote/v1/depth: weight by limit. */
  async depth(query: DepthQuery): Promise<Result<OrderBook, VenueError>> {
    const e = ENDPOINTS.depth;
    const problem = firstViolation(
      () => requireText(e, 'symbol', query.symbol),
      () => depthLimit(e, query.limit),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(
      this.rest,
      { endpoint: e, query: orderedParams({ symbol: query.symbol, limit: query.limit }), weight: depthWeight(query.limit) },
      orderBookSchema,
    );
  }

  /** GET /quote/v1/depth/merged: the book aggregated to a price gear. */
  async depthMerged(query: MergedDepthQuery): Promise<Result<OrderBook, VenueError>> {
    const e = ENDPOINTS.depthMerged;
    const problem = firstViolation(
      () => requireText(e, 'symbol', query.symbol),
      () => limitInRange(e, query.scale, 0, MAX_DEPTH_SCALE, 'scale'),
      () => limitInRange(e, query.limit),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol: query.symbol, scale: query.scale, limit: query.limit }) }, orderBookSchema);
  }

  /** GET /quote/v1/trades: recent public trades. */
  async trades(query: TradesQuery): Promise<Result<PublicTrade[], VenueError>> {
    const e = ENDPOINTS.trades;
    const problem = firstViolation(
      () => requireText(e, 'symbol', query.symbol),
      () => limitInRange(e, query.limit, 1, MAX_TRADES),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol: query.symbol, limit: query.limit }) }, tradesSchema);
  }

  /** GET /quote/v1/klines: candles with close time derived from the interval (live sends 0). */
  async klines(query: KlinesQuery): Promise<Result<Kline[], VenueError>> {
    const e = ENDPOINTS.klines;
    const problem = firstViolation(
      () => requireText(e, 'symbol', query.symbol),
      () => oneOf(e, 'interval', query.interval, klineInterval.options),
      () => timeRange(e, query.startTime, query.endTime, 'startTime', 'endTime'),
      () => limitInRange(e, query.limit, 1, MAX_KLINES),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(
      this.rest,
      {
        endpoint: e,
        query: orderedParams({ symbol: query.symbol, interval: query.interval, startTime: query.startTime, endTime: query.endTime, limit: query.limit }),
      },
      klinesSchema(query.interval),
    );
  }

  /** GET /quote/v1/index/klines */
  async indexKlines(query: PriceKlinesQuery): Promise<Result<IndexKline[], VenueError>> {
    const e = ENDPOINTS.indexKlines;
    const problem = checkPriceKlines(e, query);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: priceKlinesParams(query) }, indexKlinesSchema);
  }

  /** GET /quote/v1/indexPriceComponents: undefined when the index is unknown (live answers `{}`). */
  async indexPriceComponents(symbol: string): Promise<Result<IndexPriceComponents | undefined, VenueError>> {
    const e = ENDPOINTS.indexPriceComponents;
    const problem = requireText(e, 'symbol', symbol);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol }) }, indexPriceComponentsSchema);
  }

  /** GET /quote/v1/markPrice/klines */
  async markPriceKlines(query: PriceKlinesQuery): Promise<Result<MarkPriceKline[], VenueError>> {
    const e = ENDPOINTS.markPriceKlines;
    const problem = checkPriceKlines(e, query);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: priceKlinesParams(query) }, markPriceKlinesSchema);
  }

  /** GET /quote/v1/markPrice?symbol=: undefined when the symbol is unknown (live answers 200 with an empty body). */
  async markPrice(symbol: string): Promise<Result<MarkPrice | undefined, VenueError>> {
    const e = ENDPOINTS.markPrice;
    const problem = requireText(e, 'symbol', symbol);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol }) }, markPriceOneSchema);
  }

  /** GET /quote/v1/markPrice without a symbol: every symbol's mark price. */
  async markPrices(): Promise<Result<MarkPrice[], VenueError>> {
    return callParsed(this.rest, { endpoint: ENDPOINTS.markPrice }, markPriceListSchema);
  }

  /** GET /api/v1/futures/fundingRate: current rates, all symbols when omitted (unknown symbol: -1130). */
  async fundingRate(symbol?: string): Promise<Result<FundingRate[], VenueError>> {
    return this.bySymbol(ENDPOINTS.fundingRate, symbol, fundingRatesSchema);
  }

  /** GET /api/v1/futures/historyFundingRate: settled rates, newest first. */
  async historyFundingRate(query: FundingHistoryQuery): Promise<Result<FundingHistoryRow[], VenueError>> {
    const e = ENDPOINTS.historyFundingRate;
    const problem = firstViolation(
      () => requireText(e, 'symbol', query.symbol),
      () => integerId(e, 'fromId', query.fromId),
      () => integerId(e, 'endId', query.endId),
      () => limitInRange(e, query.limit, 1, MAX_FUNDING_HISTORY),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(
      this.rest,
      { endpoint: e, query: orderedParams({ symbol: query.symbol, fromId: query.fromId, endId: query.endId, limit: query.limit }) },
      fundingHistoryListSchema,
    );
  }

  /** GET /quote/v1/openInterest: in contracts. */
  async openInterest(symbol: string): Promise<Result<OpenInterest[], VenueError>> {
    return this.forSymbol(ENDPOINTS.openInterest, symbol, openInterestListSchema);
  }

  /** GET /quote/v1/globalLongShortAccountRatio */
  async longShortRatio(query: LongShortQuery): Promise<Result<LongShortRatio[], VenueError>> {
    const e = ENDPOINTS.longShortRatio;
    const problem = firstViolation(
      () => requireText(e, 'symbol', query.symbol),
      () => oneOf(e, 'period', query.period, longShortPeriod.options),
      () => limitInRange(e, query.limit, 1, MAX_LONG_SHORT),
      () => timeRange(e, query.startTime, query.endTime, 'startTime', 'endTime'),
    );
    if (problem !== undefined) return err(problem);
    return callParsed(
      this.rest,
      {
        endpoint: e,
        query: orderedParams({ symbol: query.symbol, period: query.period, limit: query.limit, startTime: query.startTime, endTime: query.endTime }),
      },
      longShortRatiosSchema,
    );
  }

  /** GET /api/v1/futures/insuranceBySymbol: 14 days by default, updated daily at 00:00 UTC. */
  async insuranceFund(symbol: string): Promise<Result<InsuranceFund[], VenueError>> {
    return this.forSymbol(ENDPOINTS.insuranceFund, symbol, insuranceFundListSchema);
  }

  /** GET /api/v1/futures/riskLimits: non-whitelist levels. */
  async riskLimits(symbol: string): Promise<Result<RiskLimitLevel[], VenueError>> {
    return this.forSymbol(ENDPOINTS.riskLimits, symbol, riskLimitLevelsSchema);
  }

  /** GET /quote/v1/contract/ticker/24hr: weight 1 with a symbol, 40 without. */
  contractTicker24h(query: ContractTicker24hQuery = {}): Promise<Result<Ticker24h[], VenueError>> {
    const e = ENDPOINTS.contractTicker24h;
    // The first violation, in order (a chain, not firstViolation's closures: this call is on the poll's hot path).
    const problem =
      optionalSymbol(e, query.symbol) ?? (query.realtimeInterval === undefined ? undefined : oneOf(e, 'realtimeInterval', query.realtimeInterval, realtimeInterval.options));
    if (problem !== undefined) return Promise.resolve(err(problem));
    // Not async: the promise handed on is callParsed's own (an async function returning a promise settles two microtask turns after it).
    return callParsed(
      this.rest,
      { endpoint: e, query: orderedParams({ symbol: query.symbol, realtimeInterval: query.realtimeInterval }), weight: tickerWeight(query.symbol) },
      tickers24hSchema,
      readTickers24h,
    );
  }

  /** GET /quote/v1/contract/ticker/price */
  async contractTickerPrice(symbol?: string): Promise<Result<PriceTicker[], VenueError>> {
    return this.bySymbol(ENDPOINTS.contractTickerPrice, symbol, priceTickersSchema);
  }

  /** GET /quote/v1/index: prices keyed by index token; both maps are empty for an unknown symbol. */
  async index(symbol?: string): Promise<Result<IndexPrices, VenueError>> {
    return this.bySymbol(ENDPOINTS.index, symbol, indexPricesSchema);
  }

  /** GET /quote/v1/contract/ticker/bookTicker */
  contractBookTicker(symbol?: string): Promise<Result<BookTicker[], VenueError>> {
    // Not async (nor bySymbol): the promise handed on is callParsed's own, no hop of its own on the book ticker poll's way to the kernel.
    return this.bySymbol(ENDPOINTS.contractBookTicker, symbol, bookTickersSchema, readBookTickers);
  }

  /** GET /quote/v1/ticker/24hr: weight 1 with a symbol, 40 without. */
  async spotTicker24h(symbol?: string): Promise<Result<Ticker24h[], VenueError>> {
    const e = ENDPOINTS.spotTicker24h;
    const problem = optionalSymbol(e, symbol);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol }), weight: tickerWeight(symbol) }, tickers24hSchema, readTickers24h);
  }

  /** GET /quote/v1/ticker/price (live also answers contract symbols). */
  async spotTickerPrice(symbol?: string): Promise<Result<PriceTicker[], VenueError>> {
    return this.bySymbol(ENDPOINTS.spotTickerPrice, symbol, priceTickersSchema);
  }

  /** GET /quote/v1/ticker/bookTicker (live also answers contract symbols). */
  async spotBookTicker(symbol?: string): Promise<Result<BookTicker[], VenueError>> {
    return this.bySymbol(ENDPOINTS.spotBookTicker, symbol, bookTickersSchema);
  }

  /** An endpoint whose only parameter is a required symbol. */
  private async forSymbol<S extends z.ZodType>(e: EndpointDef, symbol: string, schema: S): Promise<Result<z.output<S>, VenueError>> {
    const problem = requireText(e, 'symbol', symbol);
    if (problem !== undefined) return err(problem);
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol }) }, schema);
  }

  /** An endpoint whose only parameter is an optional symbol (omitted: all symbols). */
  private bySymbol<S extends z.ZodType>(e: EndpointDef, symbol: string | undefined, schema: S, read?: (payload: unknown) => z.output<S> | undefined): Promise<Result<z.output<S>, VenueError>> {
    const problem = optionalSymbol(e, symbol);
    if (problem !== undefined) return Promise.resolve(err(problem));
    return callParsed(this.rest, { endpoint: e, query: orderedParams({ symbol }) }, schema, read);
  }
}

function checkPriceKlines(e: EndpointDef, query: PriceKlinesQuery): Check {
  return firstViolation(
    () => requireText(e, 'symbol', query.symbol),
    () => oneOf(e, 'interval', query.interval, klineInterval.options),
    () => (Number.isFinite(query.from) ? undefined : invalidRequest(endpointLabel(e), 'mandatory-parameter', 'from is required', 'from')),
    () => (Number.isFinite(query.to) ? undefined : invalidRequest(endpointLabel(e), 'mandatory-parameter', 'to is required', 'to')),
    () => timeRange(e, query.from, query.to, 'from', 'to'),
    () => limitInRange(e, query.limit, 1, MAX_PRICE_KLINES),
  );
}

function priceKlinesParams(query: PriceKlinesQuery): ReturnType<typeof orderedParams> {
  return orderedParams({ symbol: query.symbol, interval: query.interval, from: query.from, to: query.to, limit: query.limit });
}

/** A symbol that may be omitted, but not sent blank. */
function optionalSymbol(e: EndpointDef, symbol: string | undefined): Check {
  return symbol === undefined ? undefined : requireText(e, 'symbol', symbol);
}

function oneOf(e: EndpointDef, field: string, value: string, allowed: readonly string[]): Check {
  return allowed.includes(value) ? undefined : invalidRequest(endpointLabel(e), `${field}-value`, `${field} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, field);
}

function depthLimit(e: EndpointDef, limit: number | undefined): Check {
  if (limit === undefined || DEPTH_LIMITS.includes(limit)) return undefined;
  return invalidRequest(endpointLabel(e), 'limit-value', `limit must be one of ${DEPTH_LIMITS.join(', ')}, got ${limit}`, 'limit');
}

/** Epoch-ms bounds: non-negative integers, start not after end. */
function timeRange(e: EndpointDef, start: number | undefined, end: number | undefined, startField: string, endField: string): Check {
  const label = endpointLabel(e);
  for (const [field, value] of [
    [startField, start],
    [endField, end],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) return invalidRequest(label, `${field}-format`, `${field} must be epoch milliseconds, got ${value}`, field);
  }
  if (start !== undefined && end !== undefined && start > end) return invalidRequest(label, 'time-range', `${startField} must not be after ${endField}`, startField);
  return undefined;
}

function integerId(e: EndpointDef, field: string, value: string | undefined): Check {
  if (value === undefined || /^\d+$/.test(value)) return undefined;
  return invalidRequest(endpointLabel(e), `${field}-format`, `${field} must be an integer id`, field);
}
