import { CandleSeries } from './candle-series.js';
import type { KlineInterval } from './intervals.js';
import { KLINE_INTERVALS } from './intervals.js';

/** Candles of every interval for one price source (a symbol's trades, index or mark price). */
export class KlineSet {
  private readonly series: readonly CandleSeries[];
  private readonly byInterval: ReadonlyMap<KlineInterval, CandleSeries>;

  /** `retention`: candles kept per interval (at least a day of minutes, for the rolling tickers). */
  constructor(retention: number) {
    this.series = KLINE_INTERVALS.map((interval) => new CandleSeries(interval, retention));
    this.byInterval = new Map(this.series.map((s) => [s.interval, s]));
  }

  /** Candles kept over all intervals. */
  get size(): number {
    let n = 0;
    for (const series of this.series) n += series.size;
    return n;
  }

  of(interval: KlineInterval): CandleSeries {
    const series = this.byInterval.get(interval);
    if (series === undefined) throw new RangeError(`no candles for interval ${interval}`);
    return series;
  }

  addPrice(ts: number, price: number): void {
    const series = this.series;
    for (let i = 0; i < series.length; i++) series[i]?.addPrice(ts, price);
  }

  addTrade(ts: number, price: number, lots: number, product: number, takerBuy: boolean): void {
    const series = this.series;
    for (let i = 0; i < series.length; i++) series[i]?.addTrade(ts, price, lots, product, takerBuy);
  }
}
