import type { KlineInterval } from '../model/market-events.js';
import type { MarketEvent } from '../sim/market-stream/events.js';
import { readMarketStream } from '../sim/market-stream/reader.js';
import { buildableIntervals, KlineBuilder } from '../backtest/kline-builder.js';
import type { RecordingReplay } from '../recording/feed.js';
import type { Candle, PriceSeries } from './data.js';
import { MAX_CANDLES } from './data.js';

export interface PriceSeriesOptions {
  /** Epoch ms; earlier events are skipped. */
  readonly from?: number;
  /** Epoch ms, inclusive; reading stops after it. */
  readonly to?: number;
  /** Candles per symbol at most (default MAX_CANDLES): a longer run gets a longer interval. */
  readonly maxCandles?: number;
}

/**
 * Each symbol's candles over the recordings, for the report's price charts: built by the backtest's
 * kline builder from the recorded trades, from a download's contract bars, or (a symbol with
 * neither) from its mark prices; 1-minute candles (or the bars' own interval), merged into a longer
 * interval when there would be more than `maxCandles`. Symbols sorted.
 */
export async function priceSeriesOf(recordings: readonly string[], options: PriceSeriesOptions = {}): Promise<PriceSeries[]> {
  const collector = new PriceSeriesCollector(options);
  for (const path of recordings) {
    for await (const event of readMarketStream(path)) {
      if (!collector.add(event)) break;
    }
  }
  return collector.series();
}

/** The same series from recordings already in memory (a replay of them, cut at their `to`), without reading the files again. */
export function priceSeriesOfReplay(recording: RecordingReplay, options: PriceSeriesOptions = {}): PriceSeries[] {
  const collector = new PriceSeriesCollector(options);
  const feed = recording.replay();
  while (feed.peekTime() !== undefined) {
    if (!collector.add(feed.next())) break;
  }
  return collector.series();
}

/**
 * `priceSeriesOf`'s series from recorded events handed over one at a time, in the recordings' time order:
 * a backtest's replay hands it the events it applies (`BacktestOptions.onRecordedEvent`), so the report
 * needs no second pass over the recording.
 */
export class PriceSeriesCollector {
  private readonly to: number;
  private readonly candles: CandleCollector;

  constructor(private readonly options: PriceSeriesOptions = {}) {
    this.to = options.to ?? Number.POSITIVE_INFINITY;
    this.candles = new CandleCollector(options.from ?? Number.NEGATIVE_INFINITY);
  }

  /** False for an event after `to` (left out, as every later one would be). */
  add(event: MarketEvent): boolean {
    if (event.ts > this.to) return false;
    this.candles.add(event);
    return true;
  }

  series(): PriceSeries[] {
    return this.candles.series(this.options.maxCandles ?? MAX_CANDLES);
  }
}

const MINUTE = 60_000;
/** Best first: what a symbol's candles are built from when the recording has more than one. */
const SOURCES = ['contract bars', 'trades', 'mark price'] as const;
const BARS = 0;
const TRADES = 1;
const MARKS = 2;

/** One symbol's candles from one source, as the kline builder closes them. */
class SourceCandles {
  readonly candles: Candle[] = [];
  private readonly builder: KlineBuilder;
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly symbol: string,
    readonly interval: KlineInterval,
    readonly ms: number,
  ) {
    this.builder = new KlineBuilder([{ symbol, interval }]);
  }

  /** A trade or a mark price at `price` (a candle has no volume: no quantity is summed). */
  print(time: number, price: string): void {
    this.advance(time);
    this.builder.trade({ symbol: this.symbol, ts: time, price });
  }

  /** A downloaded bar opening at `open`: the builder takes it stamped with its end. */
  bar(event: Extract<MarketEvent, { type: 'bar' }>): void {
    this.advance(event.ts);
    this.builder.bar({ ...event, ts: event.ts + event.durationMs });
  }

  /** Closes the forming candle too. */
  finish(): Candle[] {
    if (this.last > Number.NEGATIVE_INFINITY) this.advance(Math.floor(this.last / this.ms) * this.ms + this.ms);
    return this.candles;
  }

  private advance(time: number): void {
    this.last = Math.max(this.last, time);
    for (const k of this.builder.advance(time)) this.candles.push([k.openTime, Number(k.open.toFixed()), Number(k.high.toFixed()), Number(k.low.toFixed()), Number(k.close.toFixed())]);
  }
}

/**
 * A symbol's candles from the best of its sources seen so far (index in SOURCES): the series shows
 * only the best source's, so a worse one's prints build nothing, and a better one replaces it.
 */
interface SymbolCandles {
  rank: number;
  built: SourceCandles | undefined;
}

class CandleCollector {
  private readonly bySymbol = new Map<string, SymbolCandles>();

  constructor(private readonly from: number) {}

  add(event: MarketEvent): void {
    if (event.ts < this.from) return;
    if (event.type === 'trade') this.source(event.symbol, TRADES, MINUTE)?.print(event.ts, event.price);
    else if (event.type === 'mark') this.source(event.symbol, MARKS, MINUTE)?.print(event.ts, event.price);
    else if (event.type === 'bar' && event.source === 'contract') this.source(event.symbol, BARS, event.durationMs)?.bar(event);
  }

  series(maxCandles: number): PriceSeries[] {
    return [...this.bySymbol.keys()].sort().flatMap((symbol) => {
      const { rank, built } = this.bySymbol.get(symbol)!;
      if (built === undefined) return [];
      const { interval, ms, candles } = coarsened(built.finish(), built.interval, built.ms, maxCandles);
      return [{ symbol, source: `${interval} candles from the ${SOURCES[rank]}`, intervalMs: ms, candles }];
    });
  }

  /** Undefined for a source worse than the symbol's best, and for bars of no buildable interval (shorter than a minute and not dividing one). */
  private source(symbol: string, rank: number, barMs: number): SourceCandles | undefined {
    let symbolCandles = this.bySymbol.get(symbol);
    if (symbolCandles === undefined) this.bySymbol.set(symbol, (symbolCandles = { rank: SOURCES.length, built: undefined }));
    if (rank > symbolCandles.rank) return undefined;
    const existing = symbolCandles.built;
    if (rank === symbolCandles.rank && existing !== undefined) return existing.ms % barMs === 0 ? existing : undefined;
    const fit = buildableIntervals().find(([, ms]) => ms >= barMs && ms % barMs === 0);
    if (fit === undefined) return undefined;
    const created = new SourceCandles(symbol, fit[0], fit[1]);
    symbolCandles.rank = rank;
    symbolCandles.built = created;
    return created;
  }
}

/** The shortest interval (a multiple of `ms`) that gives at most `max` candles, the candles merged into it. */
export function coarsened(candles: readonly Candle[], interval: KlineInterval, ms: number, max: number): { interval: KlineInterval; ms: number; candles: Candle[] } {
  const buckets = (width: number): number => new Set(candles.map(([t]) => Math.floor(t / width))).size;
  const choices = buildableIntervals().filter(([, w]) => w >= ms && w % ms === 0);
  const [name, width] = choices.find(([, w]) => buckets(w) <= max) ?? choices[choices.length - 1] ?? [interval, ms];
  if (width === ms) return { interval, ms, candles: [...candles] };
  const merged: Array<[number, number, number, number, number]> = [];
  for (const [t, o, h, l, c] of candles) {
    const open = Math.floor(t / width) * width;
    const last = merged[merged.length - 1];
    if (last === undefined || last[0] !== open) merged.push([open, o, h, l, c]);
    else {
      last[2] = Math.max(last[2], h);
      last[3] = Math.min(last[3], l);
      last[4] = c;
    }
  }
  return { interval: name, ms: width, candles: merged };
}
