import type { Candle, MutableCandle } from './candle.js';
import { addPrice, addTrade, newCandle } from './candle.js';
import type { KlineInterval } from './intervals.js';
import { bucketOf } from './intervals.js';

/**
 * Candles of one interval in open-time order, the oldest dropped beyond `retention`. Events arrive in
 * time order, so the current candle is found with one comparison; an older event (a replay glitch)
 * finds its candle by binary search.
 */
export class CandleSeries {
  private candles: MutableCandle[] = [];
  /** Index of the oldest retained candle (dropped ones are cut off in batches). */
  private first = 0;
  private current: MutableCandle | undefined;

  constructor(
    readonly interval: KlineInterval,
    private readonly retention: number,
  ) {}

  get size(): number {
    return this.candles.length - this.first;
  }

  addPrice(ts: number, price: number): void {
    const candle = this.candleAt(ts, price);
    if (candle !== undefined) addPrice(candle, price);
  }

  addTrade(ts: number, price: number, lots: number, product: number, takerBuy: boolean): void {
    const candle = this.candleAt(ts, price);
    if (candle !== undefined) addTrade(candle, price, lots, product, takerBuy);
  }

  latest(): Candle | undefined {
    return this.current;
  }

  /** The candle opening at `openTime`, if any. */
  find(openTime: number): Candle | undefined {
    const i = this.lowerBound(openTime);
    const candle = this.candles[i];
    return candle !== undefined && candle.openTime === openTime ? candle : undefined;
  }

  /**
   * Candles with `startTime ≤ openTime ≤ endTime`, ascending: the first `limit` from `startTime` when it
   * is given, else the last `limit` up to `endTime` (or up to the latest candle).
   */
  select(startTime: number | undefined, endTime: number | undefined, limit: number): Candle[] {
    const end = endTime ?? Number.POSITIVE_INFINITY;
    const out: Candle[] = [];
    if (startTime !== undefined) {
      for (let i = this.lowerBound(startTime); i < this.candles.length && out.length < limit; i++) {
        const candle = this.candles[i];
        if (candle === undefined || candle.openTime > end) break;
        out.push(candle);
      }
      return out;
    }
    for (let i = this.lowerBound(end + 1) - 1; i >= this.first && out.length < limit; i--) {
      const candle = this.candles[i];
      if (candle !== undefined) out.push(candle);
    }
    return out.reverse();
  }

  /** Candles opening at or after `startTime`, ascending (a view for aggregations; do not keep it). */
  *from(startTime: number): Generator<Candle, void, undefined> {
    for (let i = this.lowerBound(startTime); i < this.candles.length; i++) {
      const candle = this.candles[i];
      if (candle !== undefined) yield candle;
    }
  }

  private candleAt(ts: number, price: number): MutableCandle | undefined {
    const current = this.current;
    if (current !== undefined && ts >= current.openTime && ts < current.nextOpen) return current;
    const bucket = bucketOf(ts, this.interval);
    if (current === undefined || ts >= current.nextOpen) {
      const candle = newCandle(bucket.open, bucket.next, price);
      this.candles.push(candle);
      this.current = candle;
      this.trim();
      return candle;
    }
    return this.older(bucket.open, bucket.next, price);
  }

  /** An event before the current candle: its candle, created in place when missing. */
  private older(open: number, next: number, price: number): MutableCandle | undefined {
    const i = this.lowerBound(open);
    if (i === this.first && this.size >= this.retention) return undefined;
    const found = this.candles[i];
    if (found !== undefined && found.openTime === open) return found;
    const candle = newCandle(open, next, price);
    this.candles.splice(i, 0, candle);
    this.trim();
    return candle;
  }

  private trim(): void {
    if (this.candles.length - this.first <= this.retention) return;
    this.first = this.candles.length - this.retention;
    if (this.first >= this.retention) {
      this.candles = this.candles.slice(this.first);
      this.first = 0;
    }
  }

  /** Index of the first retained candle with openTime ≥ `time`. */
  private lowerBound(time: number): number {
    let lo = this.first;
    let hi = this.candles.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const candle = this.candles[mid];
      if (candle !== undefined && candle.openTime < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
