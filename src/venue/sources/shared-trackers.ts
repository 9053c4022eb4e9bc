import type { KlineInterval } from '../../model/market-events.js';
import { KlineTracker } from './kline-tracker.js';
import { TradeDeduper } from './trade-deduper.js';

/** State a channel's poll and its socket share, so a switch between the two neither repeats nor loses an event. */
export interface SharedChannelState {
  deduper(symbol: string): TradeDeduper;
  klineTracker(symbol: string, interval: KlineInterval): KlineTracker;
}

/** One trade deduper per symbol and one kline tracker per symbol and interval, made on first use. */
export class SharedTrackers implements SharedChannelState {
  private readonly dedupers = new Map<string, TradeDeduper>();
  private readonly trackers = new Map<string, KlineTracker>();

  constructor(private readonly klineCloseGraceMs = 2000) {}

  deduper(symbol: string): TradeDeduper {
    let deduper = this.dedupers.get(symbol);
    if (deduper === undefined) this.dedupers.set(symbol, (deduper = new TradeDeduper()));
    return deduper;
  }

  klineTracker(symbol: string, interval: KlineInterval): KlineTracker {
    const key = `${symbol}/${interval}`;
    let tracker = this.trackers.get(key);
    if (tracker === undefined) this.trackers.set(key, (tracker = new KlineTracker(symbol, interval, this.klineCloseGraceMs)));
    return tracker;
  }
}
