import { decText } from '../../core/decimal.js';
import type { Side } from '../../model/instrument.js';
import type { TradePrinted } from '../../model/market-events.js';
import type { PublicTrade } from '../parsers/market.js';

/**
 * Recent-trades replies overlap from one poll to the next; this lets each trade through once.
 * Public trades carry no id, so a trade's key is its time, price, size and taker side, plus its rank
 * among identical trades of the same reply (counted from the oldest, so a trade keeps its key while
 * newer ones arrive). Memory is bounded: past `capacity` keys the oldest go, and every trade not newer
 * than the newest forgotten one is ignored, so a forgotten trade can never come back as new.
 */
export class TradeDeduper {
  private readonly seen = new Set<string>();
  private readonly order: { readonly key: string; readonly time: number }[] = [];
  private floor = -Infinity;

  constructor(private readonly capacity = 2000) {
    if (!(Number.isInteger(capacity) && capacity > 0)) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }

  /** The trades of a reply not seen before, oldest first. */
  accept(symbol: string, trades: readonly PublicTrade[]): TradePrinted[] {
    const sorted = [...trades].sort((a, b) => a.time - b.time);
    const ranks = new Map<string, number>();
    const fresh: TradePrinted[] = [];
    for (const trade of sorted) {
      const takerSide: Side = trade.isBuyerMaker ? 'SELL' : 'BUY';
      const base = `${trade.time}:${decText(trade.price)}:${decText(trade.qty)}:${takerSide}`;
      const rank = ranks.get(base) ?? 0;
      ranks.set(base, rank + 1);
      const key = `${base}:${rank}`;
      if (trade.time <= this.floor || this.seen.has(key)) continue;
      this.remember(key, trade.time);
      fresh.push({ type: 'market.trade', symbol, time: trade.time, tradeId: key, price: trade.price, qty: trade.qty, takerSide });
    }
    return fresh;
  }

  get size(): number {
    return this.seen.size;
  }

  private remember(key: string, time: number): void {
    this.seen.add(key);
    this.order.push({ key, time });
    while (this.order.length > this.capacity) {
      const oldest = this.order.shift();
      if (oldest === undefined) break;
      this.seen.delete(oldest.key);
      this.floor = Math.max(this.floor, oldest.time);
    }
  }
}
