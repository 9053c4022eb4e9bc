import type { Clock } from '../../core/clock.js';
import { assertNever } from '../../core/errors.js';
import type { MarketEvent, TradeEvent } from '../market-stream/events.js';
import type { SimInstrument } from '../market-stream/instruments.js';
import { depthRow, mergedDepthRow } from './depth-view.js';
import type { ExchangeInfoBody } from './exchange-info.js';
import { EXCHANGE_ID, exchangeInfoBody, exchangeInfoReply } from './exchange-info.js';
import { indexSources, indexTokenOf } from './index-tokens.js';
import type { KlineInterval } from './klines/intervals.js';
import { DAY_MS, KLINE_INTERVALS } from './klines/intervals.js';
import { indexKlineRow, klineRow, markKlineRow } from './klines/rows.js';
import type { LongShortPeriod } from './positioning.js';
import { LONG_SHORT_HISTORY_MS, insuranceValues, longShortRow } from './positioning.js';
import { riskLimitRows } from './risk-limits.js';
import { SymbolState } from './symbol-state.js';
import { contractTickerRow, spotTickerRow } from './ticker/rows.js';
import type { RealtimeInterval } from './ticker/window.js';
import type {
  BookTickerRow,
  FundingHistoryRow,
  FundingRateRow,
  IndexComponentsReply,
  IndexKlineRow,
  IndexPricesReply,
  InsuranceFundReply,
  KlineRow,
  LongShortRow,
  MarkKlineRow,
  MarkPriceRow,
  OpenInterestReply,
  OrderBookRow,
  PriceTickerRow,
  RiskLimitRow,
  Ticker24hRow,
  TradeRow,
} from './wire-rows.js';

export interface MarketDataOptions {
  /**
   * Candles kept per interval and price source (default 10 080: a week of minutes; at least 60). Below
   * 1440 the rolling 24 h tickers cover only the minutes kept (soak runs keep the simulator's histories short).
   */
  readonly klineRetention?: number;
  /** Public trades kept per symbol (default 1000; the REST route shows at most 60). */
  readonly tradeBuffer?: number;
  /** After a settlement the funding row keeps naming the settled instant this long (default 75 s, live). */
  readonly fundingRowLagMs?: number;
}

/** Days of insurance-fund rows by default (document 001). */
const INSURANCE_DAYS = 14;
const NUMERIC_EXCHANGE_ID = Number(EXCHANGE_ID);

/**
 * The public market-data face of the simulated exchange: it ingests the market stream (every event,
 * in order) and answers the public endpoints of document 001 in their live shapes. Queries return
 * wire rows, or undefined for a symbol it does not list; `now` defaults to the clock.
 *
 * Contract symbols are the instruments'; spot symbols are their index tokens (`BTCUSDT`), priced by
 * the index of the first contract tracking them. The simulator runs no spot market: a spot symbol's
 * book and trade list are empty and its klines are its index candles with no volume (what its ticker
 * shows too), rather than a -100011 refusal a client cannot tell from an unknown symbol. Open interest, the long/short ratio and the insurance
 * fund are synthetic, derived deterministically from the trade flow (see open-interest.ts and
 * positioning.ts).
 */
export class MarketDataService {
  readonly instruments: readonly SimInstrument[];
  private readonly states: ReadonlyMap<string, SymbolState>;
  /** Index token → state of the contract whose index prices it. */
  private readonly tokens: ReadonlyMap<string, SymbolState>;
  private readonly info: ExchangeInfoBody;
  private readonly fundingRowLagMs: number;
  private readonly klineRetention: number;
  private settlementIds = 0;
  private unknownEvents = 0;

  constructor(
    instruments: readonly SimInstrument[],
    private readonly clock: Clock,
    options: MarketDataOptions = {},
  ) {
    const klineRetention = options.klineRetention ?? 10_080;
    this.klineRetention = klineRetention;
    const tradeBuffer = options.tradeBuffer ?? 1000;
    if (!Number.isSafeInteger(klineRetention) || klineRetention < 60) throw new RangeError(`klineRetention must be an integer ≥ 60, got ${klineRetention}`);
    this.instruments = instruments;
    this.states = new Map(instruments.map((i) => [i.symbol, new SymbolState(i, { klineRetention, tradeBuffer })]));
    const tokens = new Map<string, SymbolState>();
    for (const [token, instrument] of indexSources(instruments)) {
      const state = this.states.get(instrument.symbol);
      if (state !== undefined) tokens.set(token, state);
    }
    this.tokens = tokens;
    this.info = exchangeInfoBody(instruments);
    this.fundingRowLagMs = options.fundingRowLagMs ?? 75_000;
  }

  /** Candles kept (every symbol, interval and price source) and their bound, for metrics. */
  candleCount(): { readonly size: number; readonly limit: number } {
    let size = 0;
    let sets = 0;
    for (const state of this.states.values()) {
      for (const set of [state.tradeKlines, state.indexKlines, state.markKlines]) {
        size += set.size;
        sets += 1;
      }
    }
    return { size, limit: sets * KLINE_INTERVALS.length * this.klineRetention };
  }

  /** Feed every market event here, in stream order. Events of unlisted symbols are counted and ignored. */
  ingest(event: MarketEvent): void {
    const state = this.states.get(event.symbol);
    if (state === undefined) {
      this.unknownEvents++;
      return;
    }
    switch (event.type) {
      case 'trade':
        state.onTrade(event);
        return;
      case 'depth':
        state.onDepth(event);
        return;
      case 'mark':
        state.onMark(event);
        return;
      case 'index':
        state.onIndex(event);
        return;
      case 'funding':
        state.onFunding(event, () => ++this.settlementIds);
        return;
      case 'bar':
        // Bars (a downloaded history) say nothing about a moment: the candles are built from tick events.
        return;
      default:
        assertNever(event, 'market event');
    }
  }

  /** Events ignored so far: unlisted symbols, or prices and sizes off the instrument's grid. */
  ignoredEvents(): number {
    let count = this.unknownEvents;
    for (const state of this.states.values()) count += state.offGrid;
    return count;
  }

  isContract(symbol: string): boolean {
    return this.states.has(symbol);
  }

  isSpot(symbol: string): boolean {
    return this.tokens.has(symbol);
  }

  /** The index token a contract tracks, or the token itself. */
  indexTokenFor(symbol: string): string | undefined {
    if (this.tokens.has(symbol)) return symbol;
    const state = this.states.get(symbol);
    return state === undefined ? undefined : indexTokenOf(state.instrument);
  }

  contractSymbols(): readonly string[] {
    return [...this.states.keys()];
  }

  spotSymbols(): readonly string[] {
    return [...this.tokens.keys()];
  }

  // ---- exchange information

  exchangeInfo(now = this.clock.now()): Record<string, unknown> {
    return exchangeInfoReply(this.info, now);
  }

  riskLimits(symbol: string): RiskLimitRow[] | undefined {
    const state = this.states.get(symbol);
    return state === undefined ? undefined : riskLimitRows(state.instrument);
  }

  // ---- book and trades

  /** `limit` levels a side, 0 for the whole book. */
  depth(symbol: string, limit: number, now = this.clock.now()): OrderBookRow | undefined {
    const state = this.states.get(symbol);
    if (state !== undefined) return depthRow(state.depth, limit, now);
    return this.tokens.has(symbol) ? depthRow(undefined, limit, now) : undefined;
  }

  /** The book merged to 10^scale ticks. */
  mergedDepth(symbol: string, scale: number, limit: number, now = this.clock.now()): OrderBookRow | undefined {
    const state = this.states.get(symbol) ?? this.tokens.get(symbol);
    if (state === undefined) return undefined;
    return mergedDepthRow(this.states.has(symbol) ? state.depth : undefined, state.grid, scale, limit, now);
  }

  /** The newest `limit` trades, oldest first. */
  trades(symbol: string, limit: number): TradeRow[] | undefined {
    const events = this.recentTrades(symbol, limit);
    return events?.map((e) => ({ t: e.ts, p: e.price, q: e.qty, ibm: e.buyerIsMaker }));
  }

  /** The newest `limit` trade events with their ids, oldest first. */
  recentTrades(symbol: string, limit: number): readonly TradeEvent[] | undefined {
    const state = this.states.get(symbol);
    if (state !== undefined) return state.trades.latest(limit);
    return this.tokens.has(symbol) ? [] : undefined;
  }

  // ---- candles

  /** Trade candles: the first `limit` from startTime, else the last `limit` up to endTime; neither: only the latest. */
  klines(symbol: string, interval: KlineInterval, startTime: number | undefined, endTime: number | undefined, limit: number): KlineRow[] | undefined {
    const contract = this.states.get(symbol);
    const state = contract ?? this.tokens.get(symbol);
    if (state === undefined) return undefined;
    const series = contract === undefined ? state.indexKlines.of(interval) : state.tradeKlines.of(interval);
    const candles = startTime === undefined && endTime === undefined ? series.select(undefined, undefined, 1) : series.select(startTime, endTime, limit);
    return candles.map((c) => klineRow(c, state.grid));
  }

  /** Index candles of an index token (or of the token a contract tracks). */
  indexKlines(symbol: string, interval: KlineInterval, from: number | undefined, to: number | undefined, limit: number, now = this.clock.now()): IndexKlineRow[] | undefined {
    const token = this.indexTokenFor(symbol);
    const state = token === undefined ? undefined : this.tokens.get(token);
    if (token === undefined || state === undefined) return undefined;
    return state.indexKlines
      .of(interval)
      .select(from, to, limit)
      .map((c) => indexKlineRow(c, state.grid, token, now));
  }

  markKlines(symbol: string, interval: KlineInterval, from: number | undefined, to: number | undefined, limit: number): MarkKlineRow[] | undefined {
    const state = this.states.get(symbol);
    if (state === undefined) return undefined;
    const index = state.indexKlines.of(interval);
    return state.markKlines
      .of(interval)
      .select(from, to, limit)
      .map((c) => markKlineRow(c, index.find(c.openTime), state.grid, symbol, interval));
  }

  // ---- tickers

  /** A contract's ticker, or a spot symbol's (priced by its index, no volume). */
  ticker24h(symbol: string, window: RealtimeInterval = '24h', now = this.clock.now()): Ticker24hRow | undefined {
    const contract = this.states.get(symbol);
    if (contract !== undefined) return contractTickerRow(contract, window, now);
    const spot = this.tokens.get(symbol);
    return spot === undefined ? undefined : spotTickerRow(symbol, spot, window, now);
  }

  contractTickers24h(window: RealtimeInterval = '24h', now = this.clock.now()): Ticker24hRow[] {
    return [...this.states.values()].map((s) => contractTickerRow(s, window, now));
  }

  /** Spot symbols, then contracts (the spot routes answer for contract symbols too, API-NOTES §5.5). */
  allTickers24h(window: RealtimeInterval = '24h', now = this.clock.now()): Ticker24hRow[] {
    return [...[...this.tokens].map(([token, s]) => spotTickerRow(token, s, window, now)), ...this.contractTickers24h(window, now)];
  }

  priceTicker(symbol: string): PriceTickerRow | undefined {
    const contract = this.states.get(symbol);
    if (contract !== undefined) return { s: symbol, p: contract.grid.priceText(contract.lastTicks) };
    const spot = this.tokens.get(symbol);
    return spot === undefined ? undefined : { s: symbol, p: spot.grid.priceText(spot.indexTicks) };
  }

  contractPriceTickers(): PriceTickerRow[] {
    return this.contractSymbols().flatMap((s) => this.priceTicker(s) ?? []);
  }

  allPriceTickers(): PriceTickerRow[] {
    return [...this.spotSymbols(), ...this.contractSymbols()].flatMap((s) => this.priceTicker(s) ?? []);
  }

  /** Best bid and ask of the latest book ("0" before one); a spot symbol quotes its index price both ways. */
  bookTicker(symbol: string, now = this.clock.now()): BookTickerRow | undefined {
    const contract = this.states.get(symbol);
    if (contract !== undefined) {
      const depth = contract.depth;
      const bid = depth?.bids[0];
      const ask = depth?.asks[0];
      return { t: depth?.ts ?? now, s: symbol, b: bid?.[0] ?? '0', bq: bid?.[1] ?? '0', a: ask?.[0] ?? '0', aq: ask?.[1] ?? '0' };
    }
    const spot = this.tokens.get(symbol);
    if (spot === undefined) return undefined;
    const price = spot.grid.priceText(spot.indexTicks);
    return { t: spot.indexTime ?? now, s: symbol, b: price, bq: '0', a: price, aq: '0' };
  }

  contractBookTickers(now = this.clock.now()): BookTickerRow[] {
    return this.contractSymbols().flatMap((s) => this.bookTicker(s, now) ?? []);
  }

  allBookTickers(now = this.clock.now()): BookTickerRow[] {
    return [...this.spotSymbols(), ...this.contractSymbols()].flatMap((s) => this.bookTicker(s, now) ?? []);
  }

  // ---- mark, index, funding

  markPrice(symbol: string, now = this.clock.now()): MarkPriceRow | undefined {
    const state = this.states.get(symbol);
    if (state === undefined) return undefined;
    return { exchangeId: NUMERIC_EXCHANGE_ID, symbolId: symbol, price: state.grid.priceText(state.markTicks), time: state.markTime ?? now };
  }

  markPrices(now = this.clock.now()): MarkPriceRow[] {
    return this.contractSymbols().flatMap((s) => this.markPrice(s, now) ?? []);
  }

  /** Index and 10-minute average by token: one token (a contract symbol names its token), all, or none for an unknown symbol. */
  indexPrices(symbol: string | undefined, now = this.clock.now()): IndexPricesReply {
    const index: Record<string, string> = {};
    const edp: Record<string, string> = {};
    const tokens = symbol === undefined ? this.spotSymbols() : [this.indexTokenFor(symbol)];
    for (const token of tokens) {
      const state = token === undefined ? undefined : this.tokens.get(token);
      if (token === undefined || state === undefined) continue;
      index[token] = state.grid.priceText(state.indexTicks);
      edp[token] = this.edp(state, now);
    }
    return { index, edp };
  }

  /** One synthetic component: the simulator's own spot pair. */
  indexComponents(symbol: string, now = this.clock.now()): IndexComponentsReply | undefined {
    const token = this.indexTokenFor(symbol);
    const state = token === undefined ? undefined : this.tokens.get(token);
    if (token === undefined || state === undefined) return undefined;
    return {
      index: state.grid.priceText(state.indexTicks),
      edp: this.edp(state, now),
      components: [{ exchange: 'stratd-sim', spotPair: token, weight: '1' }],
      time: state.indexTime ?? now,
    };
  }

  fundingRate(symbol: string, now = this.clock.now()): FundingRateRow | undefined {
    return this.states.get(symbol)?.funding.row(now, this.fundingRowLagMs);
  }

  fundingRates(now = this.clock.now()): FundingRateRow[] {
    return [...this.states.values()].map((s) => s.funding.row(now, this.fundingRowLagMs));
  }

  /** Settled rates newest first; fromId/endId bound the ids inclusively. */
  fundingHistory(symbol: string, fromId: bigint | undefined, endId: bigint | undefined, limit: number): FundingHistoryRow[] | undefined {
    return this.states.get(symbol)?.funding.history(fromId, endId, limit);
  }

  // ---- positioning (synthetic)

  openInterest(symbol: string): OpenInterestReply | undefined {
    const state = this.states.get(symbol);
    if (state === undefined) return undefined;
    return { openInterestList: [{ symbol, size: state.grid.quantityText(state.openInterest.lots) }] };
  }

  /** One row per trade candle of `period` within the last 30 days; times as for klines, without them the latest `limit`. */
  longShortRatio(symbol: string, period: LongShortPeriod, startTime: number | undefined, endTime: number | undefined, limit: number, now = this.clock.now()): LongShortRow[] | undefined {
    const state = this.states.get(symbol);
    if (state === undefined) return undefined;
    const oldest = now - LONG_SHORT_HISTORY_MS;
    const start = startTime === undefined ? undefined : Math.max(startTime, oldest);
    return state.tradeKlines
      .of(period)
      .select(start, endTime, limit)
      .filter((c) => c.openTime >= oldest)
      .map((c) => longShortRow(symbol, c));
  }

  /** Daily values at 00:00 UTC for the last 14 days (from the first day with data), newest first. */
  insuranceFund(symbol: string, now = this.clock.now()): InsuranceFundReply | undefined {
    const state = this.states.get(symbol);
    if (state === undefined) return undefined;
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    const firstData = state.firstTime === undefined ? today : Math.floor(state.firstTime / DAY_MS) * DAY_MS;
    const firstDay = Math.min(today, Math.max(firstData, today - (INSURANCE_DAYS - 1) * DAY_MS));
    const coin = state.instrument.category;
    const list = insuranceValues(state.tradeKlines, state.grid, firstDay, today).map(({ day, value }) => ({ coin, symbol, value, updateTime: String(day) }));
    return { list };
  }

  // ---- helpers

  private edp(state: SymbolState, now: number): string {
    const { sum, count } = state.indexAverage.window(now);
    return count === 0 ? state.grid.priceText(state.indexTicks) : state.grid.averagePriceText(sum, count);
  }
}
