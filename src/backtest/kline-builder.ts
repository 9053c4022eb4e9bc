import { compareDecimals, dec } from '../core/decimal.js';
import type { Decimal } from '../core/decimal.js';
import type { KlineInterval, KlineUpdated, TradePrinted } from '../model/market-events.js';
import { EPOCH_ALIGNED_INTERVAL_MS } from '../protocol/market-params.js';
import type { BarEvent } from '../sim/market-stream/events.js';

/** A kline series a backtest builds from the recorded trades, as `stratd run` polls it. */
export interface KlineSeries {
  readonly symbol: string;
  readonly interval: KlineInterval;
}

/** Fixed-length intervals; weeks and months (calendar-aligned) are not built. */
const INTERVAL_MS = EPOCH_ALIGNED_INTERVAL_MS;

export function buildableInterval(interval: KlineInterval): boolean {
  return INTERVAL_MS[interval] !== undefined;
}

/** The buildable intervals, shortest first, with their length in ms. */
export function buildableIntervals(): ReadonlyArray<readonly [KlineInterval, number]> {
  return Object.entries(INTERVAL_MS).map(([interval, ms]) => [interval as KlineInterval, ms] as const);
}

interface Forming {
  openTime: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal;
  /** The close is within [low, high] (a trade's price always is; a downloaded bar's close need not be). */
  closeInside: boolean;
}

/** One symbol's series of one interval. */
class SeriesBuilder {
  private forming: Forming | undefined;
  private lastClose: Decimal | undefined;

  constructor(
    readonly series: KlineSeries,
    readonly ms: number,
  ) {}

  /** Whether a kline ends at or before `time` (`close` has one to hand out). */
  closesBy(time: number): boolean {
    return this.forming !== undefined && this.forming.openTime + this.ms <= time;
  }

  /** Klines that ended at or before `time` (an interval without trades repeats the last close, volume 0). */
  close(time: number, out: KlineUpdated[]): void {
    while (this.forming !== undefined && this.forming.openTime + this.ms <= time) {
      const k = this.forming;
      out.push({
        type: 'market.kline',
        symbol: this.series.symbol,
        interval: this.series.interval,
        time: k.openTime + this.ms,
        openTime: k.openTime,
        closeTime: k.openTime + this.ms - 1,
        open: k.open,
        high: k.high,
        low: k.low,
        close: k.close,
        volume: k.volume,
        closed: true,
      });
      this.lastClose = k.close;
      const next = k.openTime + this.ms;
      this.forming = next + this.ms <= time ? { openTime: next, open: k.close, high: k.close, low: k.close, close: k.close, volume: dec(0), closeInside: true } : undefined;
    }
  }

  trade(trade: TradePrinted): void {
    const openTime = Math.floor(trade.time / this.ms) * this.ms;
    const k = this.forming;
    if (k === undefined || k.openTime !== openTime) {
      const price = trade.price;
      const open = this.lastClose ?? price;
      const side = compareDecimals(price, open);
      this.forming = { openTime, open, high: side > 0 ? price : open, low: side < 0 ? price : open, close: price, volume: trade.qty, closeInside: true };
      return;
    }
    const price = trade.price;
    // Prints repeat the last price often, and a replay's repeated price text is the same decimal object:
    // the close's own value cannot move the high or the low once the close is inside them.
    if (price !== k.close || !k.closeInside) {
      // decimal.js copies the argument of every comparison: these two ran on every trade.
      if (compareDecimals(price, k.high) > 0) k.high = price;
      if (compareDecimals(price, k.low) < 0) k.low = price;
      k.close = price;
      k.closeInside = true;
    }
    k.volume = k.volume.plus(trade.qty);
  }

  /** A downloaded bar opening at `barOpen` (its own interval divides this series'): merged into the kline it falls in, open from the bar. */
  bar(bar: BarEvent, barOpen: number): void {
    const openTime = Math.floor(barOpen / this.ms) * this.ms;
    const high = dec(bar.high);
    const low = dec(bar.low);
    const close = dec(bar.close);
    const volume = dec(bar.volume);
    const k = this.forming;
    if (k === undefined || k.openTime !== openTime) {
      this.forming = { openTime, open: dec(bar.open), high, low, close, volume, closeInside: false };
      return;
    }
    if (high.gt(k.high)) k.high = high;
    if (low.lt(k.low)) k.low = low;
    k.close = close;
    k.closeInside = false;
    k.volume = k.volume.plus(volume);
  }
}

const NONE: readonly KlineUpdated[] = Object.freeze([]);

/**
 * Klines for a backtest, built from the recorded trades (recordings hold trades, not klines). A kline
 * is published closed, once, at the first market event at or after its end, stamped with its end:
 * strategies see it no earlier than a live poller would.
 */
export class KlineBuilder {
  private readonly builders: SeriesBuilder[] = [];

  constructor(series: readonly KlineSeries[]) {
    const seen = new Set<string>();
    for (const s of series) {
      const ms = INTERVAL_MS[s.interval];
      const key = `${s.symbol}/${s.interval}`;
      if (ms === undefined || seen.has(key)) continue;
      seen.add(key);
      this.builders.push(new SeriesBuilder(s, ms));
    }
  }

  /** Closed klines up to `time`, in time order (asked at every market event: most close none, and get no array of their own). */
  advance(time: number): readonly KlineUpdated[] {
    // Called for every replayed event: a plain loop, no closure per call.
    const builders = this.builders;
    let closes = false;
    for (let i = 0; i < builders.length && !closes; i++) closes = builders[i]!.closesBy(time);
    if (!closes) return NONE;
    const out: KlineUpdated[] = [];
    for (const builder of this.builders) builder.close(time, out);
    return out.sort((a, b) => a.time - b.time || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  }

  trade(trade: TradePrinted): void {
    for (const builder of this.builders) if (builder.series.symbol === trade.symbol) builder.trade(trade);
  }

  /**
   * A contract bar of a downloaded history, as the bar model hands it on: at its end, stamped with that
   * time (`ts` = open time + duration). Klines are then built from bars instead of trades.
   */
  bar(bar: BarEvent): void {
    for (const builder of this.builders) if (builder.series.symbol === bar.symbol) builder.bar(bar, bar.ts - bar.durationMs);
  }

  /** The series whose interval is not a whole number of `barMs` bars (they cannot be built from such bars). */
  unbuildable(symbol: string, barMs: number): KlineSeries[] {
    return this.builders.filter((b) => b.series.symbol === symbol && b.ms % barMs !== 0).map((b) => b.series);
  }
}
