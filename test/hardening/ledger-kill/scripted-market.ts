import type { MarketFeed } from '../../../src/sim/engine/sim-exchange.js';
import type { MarketEvent } from '../../../src/sim/market-stream/events.js';

const MINUTE = 60_000;

/** A feed with no events of its own: the market is what the test applies (a ScriptedMarket). */
export const SILENT_FEED: MarketFeed = {
  peekTime: () => undefined,
  next: () => {
    throw new RangeError('the silent feed has no events');
  },
};

/**
 * A market the test writes into the simulator, on a market clock of its own that starts at `start`
 * and moves only when the test says so: `move` sets a new price within the current minute, `closeMinute`
 * moves to the next minute (the klines of the minute before close: a poller sees a newer kline), so a
 * strategy on 1m klines sees a kline close in milliseconds of real time instead of a minute. Every price
 * comes with a book 5 either side (deep), the mark and the index at that price, and trades there.
 */
export class ScriptedMarket {
  private ts: number;
  private tradeId = 0;

  constructor(
    private readonly symbol: string,
    start: number,
    private readonly apply: (event: MarketEvent) => void,
  ) {
    this.ts = start;
  }

  /** A new price within the current minute; `seller`: an aggressive seller (fills resting buys at or above it). */
  move(price: number, seller = false): void {
    this.ts += 1;
    this.print(price, seller);
  }

  /** The next minute opens at `price` (its trades span price ± 50: a true range of 100): the minute before closes. */
  closeMinute(price: number): void {
    this.ts = this.ts - (this.ts % MINUTE) + MINUTE + 1;
    this.print(price + 50, false);
    this.ts += 1;
    this.print(price - 50, true);
    this.ts += 1;
    this.print(price, false);
  }

  private print(price: number, seller: boolean): void {
    const { symbol, ts } = this;
    const text = price.toFixed(1);
    for (const event of [
      { type: 'depth', ts, symbol, bids: [[(price - 5).toFixed(1), '5000']], asks: [[(price + 5).toFixed(1), '5000']] },
      { type: 'mark', ts, symbol, price: text },
      { type: 'index', ts, symbol, price: text },
      { type: 'trade', ts, symbol, id: String((this.tradeId += 1)), price: text, qty: '1000', buyerIsMaker: seller },
    ] satisfies MarketEvent[]) {
      this.apply(event);
    }
  }
}
