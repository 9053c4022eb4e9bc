import type { Decimal } from '../../core/decimal.js';
import type { KlineInterval, KlineUpdated } from '../../model/market-events.js';

/** What a strategy reads from an indicator. Values are decimals; fed by closed klines only. */
export interface Indicator<T> {
  readonly symbol: string;
  readonly interval: KlineInterval;
  /** True once enough closed klines were seen for a stable value. */
  readonly ready: boolean;
  /** The value after the newest closed kline; undefined until ready. */
  value(): T | undefined;
  /** The value one closed kline earlier; undefined until two stable values exist (crossings). */
  previous(): T | undefined;
  /** Open time of the newest closed kline applied. */
  readonly lastOpenTime: number | undefined;
  /** Closed klines applied so far. */
  readonly count: number;
}

/** Bollinger bands. */
export interface Bands {
  readonly lower: Decimal;
  readonly middle: Decimal;
  readonly upper: Decimal;
}

/**
 * One indicator on one kline series: applies each closed kline once, in open-time order (a repeated
 * or older kline is ignored, so a warm-up from the cache and the live events may overlap). `step`
 * updates the wrapped trading-signals indicator and answers the converted value, or undefined while
 * it is not stable. A gap in the series is not filled: the next kline is applied as the next value.
 */
export class KlineFedIndicator<T> implements Indicator<T> {
  private current: T | undefined;
  private before: T | undefined;
  private lastOpen: number | undefined;
  private applied = 0;

  constructor(
    readonly symbol: string,
    readonly interval: KlineInterval,
    private readonly step: (kline: KlineUpdated) => T | undefined,
  ) {}

  get ready(): boolean {
    return this.current !== undefined;
  }

  value(): T | undefined {
    return this.current;
  }

  previous(): T | undefined {
    return this.before;
  }

  get lastOpenTime(): number | undefined {
    return this.lastOpen;
  }

  get count(): number {
    return this.applied;
  }

  /** True when the kline was applied. */
  feed(kline: KlineUpdated): boolean {
    if (!kline.closed || kline.symbol !== this.symbol || kline.interval !== this.interval) return false;
    if (this.lastOpen !== undefined && kline.openTime <= this.lastOpen) return false;
    this.lastOpen = kline.openTime;
    this.applied++;
    const next = this.step(kline);
    if (next !== undefined) {
      this.before = this.current;
      this.current = next;
    }
    return true;
  }
}
