import type { TradeEvent } from '../market-stream/events.js';

/** The last `capacity` public trades of a symbol (with their ids), oldest overwritten first. */
export class RecentTrades {
  private readonly ring: (TradeEvent | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`trade buffer capacity must be a positive integer, got ${capacity}`);
    this.ring = new Array<TradeEvent | undefined>(capacity).fill(undefined);
  }

  get size(): number {
    return this.count;
  }

  push(trade: TradeEvent): void {
    this.ring[this.next] = trade;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    if (this.count < this.capacity) this.count++;
  }

  /** The newest `limit` trades, oldest first. */
  latest(limit: number): TradeEvent[] {
    const n = Math.min(limit, this.count);
    const out: TradeEvent[] = [];
    for (let k = n; k >= 1; k--) {
      const trade = this.ring[(this.next - k + this.capacity) % this.capacity];
      if (trade !== undefined) out.push(trade);
    }
    return out;
  }
}
