import type { MarketEvent } from '../sim/market-stream/events.js';
import { readMarketStream } from '../sim/market-stream/reader.js';
import type { RecordingReplay } from './recording-feed.js';
import type { PriceSeries } from './report-data.js';
import { MAX_CHART_POINTS } from './report-data.js';

export interface PriceSeriesOptions {
  /** Epoch ms; earlier events are skipped. */
  readonly from?: number;
  /** Epoch ms, inclusive; reading stops after it. */
  readonly to?: number;
  /** Samples per symbol at most (default MAX_CHART_POINTS). */
  readonly maxPoints?: number;
}

/**
 * Each symbol's mark price over the recordings, for the report's price charts: the run's span is cut
 * into `maxPoints` equal buckets and each keeps the last mark price in it. Symbols sorted.
 */
export async function priceSeriesOf(recordings: readonly string[], options: PriceSeriesOptions = {}): Promise<PriceSeries[]> {
  const to = options.to ?? Number.POSITIVE_INFINITY;
  const marks = new Map<string, Array<readonly [number, number]>>();
  for (const path of recordings) {
    for await (const event of readMarketStream(path)) {
      if (event.ts > to) break;
      addMark(marks, event, options);
    }
  }
  return seriesOf(marks, options);
}

/** The same series from recordings already in memory (a replay of them, cut at their `to`), without reading the files again. */
export function priceSeriesOfReplay(recording: RecordingReplay, options: PriceSeriesOptions = {}): PriceSeries[] {
  const to = options.to ?? Number.POSITIVE_INFINITY;
  const marks = new Map<string, Array<readonly [number, number]>>();
  const feed = recording.replay();
  while (feed.peekTime() !== undefined) {
    const event = feed.next();
    if (event.ts > to) break;
    addMark(marks, event, options);
  }
  return seriesOf(marks, options);
}

function addMark(marks: Map<string, Array<readonly [number, number]>>, event: MarketEvent, options: PriceSeriesOptions): void {
  if (event.type !== 'mark' || event.ts < (options.from ?? Number.NEGATIVE_INFINITY)) return;
  const list = marks.get(event.symbol) ?? [];
  list.push([event.ts, Number(event.price)]);
  marks.set(event.symbol, list);
}

function seriesOf(marks: ReadonlyMap<string, Array<readonly [number, number]>>, options: PriceSeriesOptions): PriceSeries[] {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const list of marks.values()) {
    for (const [t] of list) {
      if (t < start) start = t;
      if (t > end) end = t;
    }
  }
  if (marks.size === 0) return [];
  const width = Math.max(1, (end - start + 1) / (options.maxPoints ?? MAX_CHART_POINTS));
  return [...marks.keys()].sort().map((symbol) => {
    const points = [...marks.get(symbol)!].sort((a, b) => a[0] - b[0]);
    const kept: Array<readonly [number, number]> = [];
    let lastBucket = -1;
    for (const point of points) {
      const bucket = Math.floor((point[0] - start) / width);
      if (bucket === lastBucket) kept[kept.length - 1] = point;
      else kept.push(point);
      lastBucket = bucket;
    }
    return { symbol, source: 'mark price', points: kept };
  });
}
