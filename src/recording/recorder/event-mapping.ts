import { decText } from '../../core/decimal.js';
import { assertNever } from '../../core/errors.js';
import type { BookLevel, MarketEvent as ModelMarketEvent } from '../../model/market-events.js';
import type { FundingPeriod, MarketEvent as StreamEvent, PriceLevel } from '../../sim/market-stream/events.js';

/** Model market events the stream format has no line for: counted, not written. */
export type SkippedKind = 'market.kline' | 'market.bookTicker' | 'market.ticker24h' | 'market.openInterest';

const PERIOD_OF_MS: ReadonlyMap<number, FundingPeriod> = new Map([
  [3_600_000, '1H'],
  [4 * 3_600_000, '4H'],
  [8 * 3_600_000, '8H'],
]);

export interface EventMapperOptions {
  /** Symbols whose book ticker becomes a one-level depth snapshot (symbols recorded without a depth channel). */
  readonly depthFromBookTicker?: ReadonlySet<string>;
  /** Funding period until one is seen (default 8H: the simulator's and the venue's usual interval). */
  readonly fundingPeriod?: FundingPeriod;
}

/**
 * Model MarketEvents → market-stream events, decimals as exact plain text:
 *   market.book → depth (every level), market.trade → trade (`buyerIsMaker` = taker sold),
 *   market.markPrice → mark, market.indexPrice → index, market.fundingRate → funding.
 * The model's funding event carries no period: it is derived from the step of `nextFundingTime`
 * (1 h, 4 h or 8 h) once the symbol's funding time has moved on, and is the default until then.
 * Klines (derivable from trades), 24 h tickers and open interest have no stream line and are skipped;
 * the book ticker too, unless its symbol is listed in `depthFromBookTicker`.
 */
export class StreamEventMapper {
  private readonly depthFromBookTicker: ReadonlySet<string>;
  private readonly defaultPeriod: FundingPeriod;
  private readonly funding = new Map<string, { nextFundingTime: number; period: FundingPeriod }>();

  constructor(options: EventMapperOptions = {}) {
    this.depthFromBookTicker = options.depthFromBookTicker ?? new Set();
    this.defaultPeriod = options.fundingPeriod ?? '8H';
  }

  /** The stream event, or the kind skipped. */
  map(event: ModelMarketEvent): StreamEvent | SkippedKind {
    switch (event.type) {
      case 'market.book':
        return { type: 'depth', ts: event.time, symbol: event.symbol, bids: event.bids.map(level), asks: event.asks.map(level) };
      case 'market.trade':
        return { type: 'trade', ts: event.time, symbol: event.symbol, id: event.tradeId, price: decText(event.price), qty: decText(event.qty), buyerIsMaker: event.takerSide === 'SELL' };
      case 'market.markPrice':
        return { type: 'mark', ts: event.time, symbol: event.symbol, price: decText(event.price) };
      case 'market.indexPrice':
        return { type: 'index', ts: event.time, symbol: event.symbol, price: decText(event.price) };
      case 'market.fundingRate':
        return { type: 'funding', ts: event.time, symbol: event.symbol, rate: decText(event.rate), nextFundingTime: event.nextFundingTime, period: this.periodOf(event.symbol, event.nextFundingTime) };
      case 'market.bookTicker':
        if (!this.depthFromBookTicker.has(event.symbol)) return event.type;
        return {
          type: 'depth',
          ts: event.time,
          symbol: event.symbol,
          bids: [[decText(event.bidPrice), decText(event.bidQty)]],
          asks: [[decText(event.askPrice), decText(event.askQty)]],
        };
      case 'market.kline':
      case 'market.ticker24h':
      case 'market.openInterest':
        return event.type;
      default:
        return assertNever(event, 'market event');
    }
  }

  private periodOf(symbol: string, nextFundingTime: number): FundingPeriod {
    const last = this.funding.get(symbol);
    let period = last?.period ?? this.defaultPeriod;
    if (last !== undefined && nextFundingTime > last.nextFundingTime) period = PERIOD_OF_MS.get(nextFundingTime - last.nextFundingTime) ?? period;
    if (last === undefined || nextFundingTime >= last.nextFundingTime) this.funding.set(symbol, { nextFundingTime, period });
    return period;
  }
}

function level(l: BookLevel): PriceLevel {
  return [decText(l.price), decText(l.qty)];
}
