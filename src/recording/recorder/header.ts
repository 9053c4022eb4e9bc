import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import { assertNever } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { MarketChannel, MarketEvent } from '../../sim/market-stream/events.js';
import type { MarketStreamHeader } from '../../sim/market-stream/format.js';
import { MARKET_STREAM_FORMAT, MARKET_STREAM_VERSION } from '../../sim/market-stream/format.js';
import type { SimInstrument } from '../../sim/market-stream/instruments.js';
import type { EstimatedField, InstrumentHints } from './instruments.js';
import { headerInstrument } from './instruments.js';
import type { RecorderMarketView } from './options.js';

export interface HeaderSourceOptions {
  readonly symbols: readonly string[];
  readonly channels: readonly MarketChannel[];
  readonly market: RecorderMarketView;
  /** Read when a header is made (it may be filled after the recorder started). */
  readonly hints?: ReadonlyMap<string, InstrumentHints>;
  readonly logger: Logger;
}

interface SeenPrices {
  mark?: string;
  bid?: string | undefined;
  ask?: string | undefined;
  trade?: string;
  index?: string;
}

/**
 * The header of each part: the recorded symbols the daemon has an instrument for, the declared
 * channels, the start time, and the instruments (recorder/instruments.ts) starting at the newest price
 * recorded so far. Remembers which fields of which symbol had to be estimated.
 */
export class HeaderSource {
  private readonly prices = new Map<string, SeenPrices>();
  private readonly estimates: Record<string, readonly EstimatedField[]> = {};

  constructor(private readonly options: HeaderSourceOptions) {}

  header(startTime: number): MarketStreamHeader {
    const { market, hints, logger } = this.options;
    const instruments: SimInstrument[] = [];
    for (const symbol of this.options.symbols) {
      const instrument = market.instrument(symbol);
      if (instrument === undefined) {
        logger.warn({ symbol }, 'no instrument for a recorded symbol: its events are left out of this part');
        continue;
      }
      const built = headerInstrument(instrument, hints?.get(symbol), this.priceOf(symbol));
      instruments.push(built.instrument);
      if (built.estimated.length > 0 && this.estimates[symbol] === undefined) {
        this.estimates[symbol] = built.estimated;
        logger.info({ symbol, estimated: built.estimated }, 'recording header: some instrument fields are estimates');
      }
    }
    return {
      format: MARKET_STREAM_FORMAT,
      version: MARKET_STREAM_VERSION,
      symbols: instruments.map((i) => i.symbol),
      channels: this.options.channels,
      instruments,
      startTime,
      source: 'recorder',
    };
  }

  /** Header fields estimated rather than known, by symbol (as of the first header that needed them). */
  estimated(): Record<string, readonly EstimatedField[]> {
    return { ...this.estimates };
  }

  notePrice(event: MarketEvent): void {
    let seen = this.prices.get(event.symbol);
    if (seen === undefined) {
      seen = {};
      this.prices.set(event.symbol, seen);
    }
    switch (event.type) {
      case 'mark':
        seen.mark = event.price;
        break;
      case 'index':
        seen.index = event.price;
        break;
      case 'trade':
        seen.trade = event.price;
        break;
      case 'depth':
        seen.bid = event.bids[0]?.[0];
        seen.ask = event.asks[0]?.[0];
        break;
      case 'funding':
      case 'bar':
        break;
      default:
        assertNever(event, 'stream event');
    }
  }

  /** The newest recorded price of a symbol (mark, else book mid, else trade, else index), else the cache's. */
  private priceOf(symbol: string): Decimal | undefined {
    const seen = this.prices.get(symbol);
    if (seen?.mark !== undefined) return dec(seen.mark);
    if (seen?.bid !== undefined && seen.ask !== undefined) return dec(seen.bid).plus(seen.ask).div(2);
    const text = seen?.trade ?? seen?.index;
    if (text !== undefined) return dec(text);
    const { market } = this.options;
    return market.markPrice(symbol) ?? market.midPrice(symbol) ?? market.lastPrice(symbol);
  }
}
