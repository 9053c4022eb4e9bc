import { InvariantError } from '../core/errors.js';
import type { MarketFeed } from '../sim/engine/sim-exchange.js';
import type { MarketEvent } from '../sim/market-stream/events.js';
import type { MarketStreamHeader } from '../sim/market-stream/format.js';
import type { SimInstrument } from '../sim/market-stream/instruments.js';
import { MarketStreamReader } from '../sim/market-stream/reader.js';
import type { MarketStreamWarning } from '../sim/market-stream/stream-error.js';
import { BacktestError } from './error.js';
import { instrumentsOf } from './instruments.js';
import { replayEvent } from './replay-events.js';

export interface RecordingFeedOptions {
  /** Events after this time are not replayed (the file is not read further). */
  readonly to?: number;
  /** A torn last line (a recording cut short) is skipped and reported here. */
  readonly onWarning?: (warning: MarketStreamWarning) => void;
}

interface Source {
  readonly path: string;
  readonly header: MarketStreamHeader;
  readonly batches: AsyncGenerator<MarketEvent[], void, undefined>;
  buffer: MarketEvent[];
  pos: number;
  /** Nothing more will be read: the file ended, or the rest is after `to`. */
  ended: boolean;
  events: number;
}

/**
 * What a backtest needs from its market: one or more recordings merged in time order (equal times: the
 * recording given first goes first). The engine pulls it synchronously (`peekTime`/`next`); the driver
 * makes sure with `covers`/`load(time)` that every event up to `time` is known before virtual time gets there.
 */
export interface RecordingFeed extends MarketFeed {
  readonly instruments: readonly SimInstrument[];
  readonly headers: ReadonlyArray<{ readonly path: string; readonly header: MarketStreamHeader }>;
  /** Events handed out so far, per recording, in the order given. */
  counts(): ReadonlyArray<{ readonly path: string; readonly events: number }>;
  /** True when every event at or before `time` is known (always true once the feed is exhausted). */
  covers(time: number): boolean;
  /** Makes `covers(time)` true; `load(-Infinity)` just makes the next event of each recording known. */
  load(time: number): Promise<void>;
  /** Every recording read to its end (or to `to`) and every event handed out. */
  exhausted(): boolean;
  close(): Promise<void>;
}

/**
 * Recordings held in memory (parsed JSONL, or their prepared form) for any number of replays, each a
 * fresh cursor; every replay gives the same events, counts and warnings as reading the files.
 */
export interface RecordingReplay {
  readonly instruments: readonly SimInstrument[];
  readonly headers: ReadonlyArray<{ readonly path: string; readonly header: MarketStreamHeader }>;
  /** Events after this time were not kept (+Infinity: none were cut). */
  readonly to: number;
  /** What the reading skipped (a torn last line), in the order a replay meets it. */
  readonly warnings: readonly MarketStreamWarning[];
  /** Kept events, all recordings together. */
  readonly size: number;
  /** Time of the last kept event (undefined: none). */
  readonly lastTime: number | undefined;
  replay(): RecordingFeed;
  /**
   * The same recordings cut after `to` (at or before this one's `to`), sharing the events: what
   * reading them with that `to` gives (a walk-forward window's backtest that ends at `to`).
   */
  until(to: number): RecordingReplay;
}

/**
 * The recordings read from disk as the replay goes: the driver reads ahead asynchronously with
 * `load(time)`, so only a window of each file is in memory.
 */
export class RecordingFileFeed implements RecordingFeed {
  readonly instruments: readonly SimInstrument[];

  private constructor(
    private readonly sources: readonly Source[],
    private readonly to: number,
  ) {
    this.instruments = instrumentsOf(sources);
  }

  /** Opens every recording and reads its header; throws MarketStreamError or BacktestError. */
  static async open(paths: readonly string[], options: RecordingFeedOptions = {}): Promise<RecordingFileFeed> {
    if (paths.length === 0) throw new BacktestError('NO_RECORDINGS', 'no recording given');
    const readers: MarketStreamReader[] = [];
    try {
      for (const path of paths) readers.push(await MarketStreamReader.open(path, options.onWarning === undefined ? {} : { onWarning: options.onWarning }));
      const sources = readers.map((reader): Source => ({ path: reader.path, header: reader.header, batches: reader.eventBatches(), buffer: [], pos: 0, ended: false, events: 0 }));
      return new RecordingFileFeed(sources, options.to ?? Number.POSITIVE_INFINITY);
    } catch (error) {
      for (const reader of readers) await reader.close();
      throw error;
    }
  }

  get headers(): ReadonlyArray<{ readonly path: string; readonly header: MarketStreamHeader }> {
    return this.sources;
  }

  /** Events handed out so far, per recording, in the order given. */
  counts(): ReadonlyArray<{ readonly path: string; readonly events: number }> {
    return this.sources.map((s) => ({ path: s.path, events: s.events }));
  }

  /** True when every event at or before `time` is in memory (always true once the feed is exhausted). */
  covers(time: number): boolean {
    for (const s of this.sources) if (!s.ended && !this.bufferedBeyond(s, time)) return false;
    return true;
  }

  /** Reads ahead until `covers(time)`; `load(-Infinity)` just makes the next event of each recording known. */
  async load(time: number): Promise<void> {
    for (const s of this.sources) {
      while (!s.ended && !this.bufferedBeyond(s, time)) {
        const read = await s.batches.next();
        if (read.done === true) s.ended = true;
        else await this.take(s, read.value);
      }
    }
  }

  /** Every recording read to its end (or to `to`) and every event handed out. */
  exhausted(): boolean {
    for (const s of this.sources) if (!s.ended || s.pos < s.buffer.length) return false;
    return true;
  }

  private bufferedBeyond(s: Source, time: number): boolean {
    const last = s.buffer[s.buffer.length - 1];
    return s.pos < s.buffer.length && last !== undefined && last.ts > time;
  }

  private async take(s: Source, batch: MarketEvent[]): Promise<void> {
    const cutAt = batch.length > 0 && batch[batch.length - 1]!.ts > this.to ? batch.findIndex((e) => e.ts > this.to) : -1;
    const events = cutAt < 0 ? batch : batch.slice(0, cutAt);
    s.buffer = s.pos >= s.buffer.length ? events : s.buffer.slice(s.pos).concat(events);
    s.pos = 0;
    if (cutAt >= 0) {
      s.ended = true;
      await s.batches.return(undefined);
    }
  }

  peekTime(): number | undefined {
    let best: number | undefined;
    for (const s of this.sources) {
      const head = this.head(s);
      if (head !== undefined && (best === undefined || head.ts < best)) best = head.ts;
    }
    return best;
  }

  next(): MarketEvent {
    let pick: Source | undefined;
    let best = Number.POSITIVE_INFINITY;
    for (const s of this.sources) {
      const head = this.head(s);
      if (head !== undefined && head.ts < best) {
        best = head.ts;
        pick = s;
      }
    }
    const event = pick === undefined ? undefined : pick.buffer[pick.pos++];
    if (pick === undefined || event === undefined) throw new InvariantError('FEED_EXHAUSTED', 'the market feed has no next event');
    pick.events++;
    return replayEvent(event);
  }

  private head(s: Source): MarketEvent | undefined {
    const event = s.buffer[s.pos];
    if (event !== undefined) return event;
    if (!s.ended) throw new InvariantError('FEED_NOT_LOADED', `${s.path}: read ahead before letting time pass`);
    return undefined;
  }

  /** Stops reading every recording. */
  async close(): Promise<void> {
    for (const s of this.sources) await s.batches.return(undefined);
  }
}
