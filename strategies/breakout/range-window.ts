import { compareDecimals, emptyDoubleArray, emptyObjectArray } from 'stratd/strategy';
import type { Decimal } from 'stratd/strategy';

interface Point {
  readonly time: number;
  readonly mid: Decimal;
}

/**
 * The high and low of the mid prices of a sliding time window, kept incrementally: two monotonic
 * queues (a price that a later higher one outlives can never be the high again, likewise for the low),
 * so each price is compared a few times in all instead of the whole window being scanned on every book.
 * The answers are those of a scan of the window's prices.
 */
export class RangeWindow {
  /**
   * Times of the window's points, oldest first (only their count and first time are needed). The arrays
   * are made in their final elements kind: a sweep runs one backtest after another in a thread.
   */
  private readonly times: number[] = emptyDoubleArray();
  private head = 0;
  private readonly highs: Point[] = emptyObjectArray();
  private highHead = 0;
  private readonly lows: Point[] = emptyObjectArray();
  private lowHead = 0;

  /** Drops the points older than `cutoff` (time < cutoff). */
  expire(cutoff: number): void {
    while (this.head < this.times.length && this.times[this.head]! < cutoff) this.head++;
    while (this.highHead < this.highs.length && this.highs[this.highHead]!.time < cutoff) this.highHead++;
    while (this.lowHead < this.lows.length && this.lows[this.lowHead]!.time < cutoff) this.lowHead++;
    this.compact();
  }

  /** Time of the oldest point, or undefined when empty. */
  get firstTime(): number | undefined {
    return this.head < this.times.length ? this.times[this.head] : undefined;
  }

  get high(): Decimal | undefined {
    return this.highHead < this.highs.length ? this.highs[this.highHead]!.mid : undefined;
  }

  get low(): Decimal | undefined {
    return this.lowHead < this.lows.length ? this.lows[this.lowHead]!.mid : undefined;
  }

  push(time: number, mid: Decimal): void {
    this.times.push(time);
    const point = { time, mid };
    while (this.highs.length > this.highHead && compareDecimals(this.highs[this.highs.length - 1]!.mid, mid) <= 0) this.highs.pop();
    this.highs.push(point);
    while (this.lows.length > this.lowHead && compareDecimals(this.lows[this.lows.length - 1]!.mid, mid) >= 0) this.lows.pop();
    this.lows.push(point);
  }

  /** Drops the consumed fronts once they are the larger part (amortized O(1) per point). */
  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.head = 0;
    }
    if (this.highHead > 1024 && this.highHead * 2 > this.highs.length) {
      this.highs.splice(0, this.highHead);
      this.highHead = 0;
    }
    if (this.lowHead > 1024 && this.lowHead * 2 > this.lows.length) {
      this.lows.splice(0, this.lowHead);
      this.lowHead = 0;
    }
  }
}
