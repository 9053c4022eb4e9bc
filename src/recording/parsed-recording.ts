import { InvariantError } from '../core/errors.js';
import type { MarketEvent } from '../sim/market-stream/events.js';
import type { MarketStreamHeader } from '../sim/market-stream/format.js';
import type { SimInstrument } from '../sim/market-stream/instruments.js';
import { MarketStreamReader } from '../sim/market-stream/reader.js';
import type { MarketStreamWarning } from '../sim/market-stream/stream-error.js';
import { BacktestError } from './error.js';
import type { RecordingFeed, RecordingFeedOptions, RecordingReplay } from './feed.js';
import { instrumentsOf } from './instruments.js';
import { replayEvent } from './replay-events.js';

/**
 * Everything a ParsedRecording holds, as plain structured-cloneable data: what a sweep's main thread
 * shares with its worker threads so that they do not read and parse the recording again.
 */
export interface ParsedRecordingParts {
  readonly headers: ReadonlyArray<{ readonly path: string; readonly header: MarketStreamHeader }>;
  readonly events: readonly MarketEvent[];
  readonly sourceOf: Uint32Array;
  readonly warnings: readonly MarketStreamWarning[];
  readonly to: number;
}

interface ParsedSource {
  readonly path: string;
  readonly header: MarketStreamHeader;
  readonly events: MarketEvent[];
}

/**
 * One or more recordings read once and held in memory, merged in time order exactly as `RecordingFileFeed`
 * merges them (equal times: the recording given first goes first), cut after `to` as it cuts them (the
 * rest of a file is not read, so a torn line after `to` is not reported). `replay()` hands out a fresh
 * cursor each time: many backtests (a sweep's combinations) share the events, which nobody mutates.
 */
export class ParsedRecording implements RecordingReplay {
  readonly instruments: readonly SimInstrument[];
  /** Events after this time were not kept (+Infinity: none were cut). */
  readonly to: number;

  private constructor(
    readonly headers: ReadonlyArray<{ readonly path: string; readonly header: MarketStreamHeader }>,
    /** Every kept event, merged. */
    private readonly events: readonly MarketEvent[],
    /** Per merged event, the index of its recording. */
    private readonly sourceOf: Uint32Array,
    /** What the reading skipped (a torn last line), in the order met. */
    readonly warnings: readonly MarketStreamWarning[],
    to: number,
  ) {
    this.instruments = instrumentsOf(headers);
    this.to = to;
  }

  /** Reads every recording to its end (or to `options.to`); throws MarketStreamError or BacktestError. */
  static async parse(paths: readonly string[], options: RecordingFeedOptions = {}): Promise<ParsedRecording> {
    if (paths.length === 0) throw new BacktestError('NO_RECORDINGS', 'no recording given');
    const to = options.to ?? Number.POSITIVE_INFINITY;
    const skipped = paths.map((): MarketStreamWarning[] => []);
    const readers: MarketStreamReader[] = [];
    try {
      // Every header first, as RecordingFileFeed.open reads them, so a bad header wins over a bad event line.
      for (const [i, path] of paths.entries()) {
        const onWarning = (warning: MarketStreamWarning): void => {
          skipped[i]!.push(warning);
          options.onWarning?.(warning);
        };
        readers.push(await MarketStreamReader.open(path, { onWarning }));
      }
      const sources: ParsedSource[] = [];
      for (const reader of readers) sources.push({ path: reader.path, header: reader.header, events: await readUntil(reader, to) });
      const { events, sourceOf } = merge(sources);
      return new ParsedRecording(
        sources.map((s) => ({ path: s.path, header: s.header })),
        events,
        sourceOf,
        inReplayOrder(sources, skipped),
        to,
      );
    } finally {
      for (const reader of readers) await reader.close();
    }
  }

  /** The recording as plain data (shared, not copied: nobody mutates it). */
  parts(): ParsedRecordingParts {
    return { headers: this.headers, events: this.events, sourceOf: this.sourceOf, warnings: this.warnings, to: this.to };
  }

  /** A recording from the parts another ParsedRecording gave (`parts()`), e.g. in a sweep worker. */
  static fromParts(parts: ParsedRecordingParts): ParsedRecording {
    if (parts.sourceOf.length !== parts.events.length) throw new InvariantError('RECORDING_PARTS', `${parts.events.length} events but ${parts.sourceOf.length} source indexes`);
    return new ParsedRecording(parts.headers, parts.events, parts.sourceOf, parts.warnings, parts.to);
  }

  until(to: number): ParsedRecording {
    if (to > this.to) throw new InvariantError('RECORDING_RANGE', `the recording was parsed up to ${this.to}, cannot replay it up to ${to}`);
    const end = firstAfter(this.events, to);
    // A file's torn last line lies after its events: reading with `to` meets it only when `to` cuts none of them.
    const cut = new Set<string>();
    if (this.warnings.length > 0) for (let i = end; i < this.events.length; i++) cut.add(this.headers[this.sourceOf[i]!]!.path);
    const warnings = this.warnings.filter((w) => !cut.has(w.file));
    return new ParsedRecording(this.headers, this.events.slice(0, end), this.sourceOf.subarray(0, end), warnings, to);
  }

  /** Kept events, all recordings together. */
  get size(): number {
    return this.events.length;
  }

  get lastTime(): number | undefined {
    return this.events.at(-1)?.ts;
  }

  /** A feed over the whole recording from its first event. */
  replay(): RecordingFeed {
    return new ParsedRecordingFeed(this.instruments, this.headers, this.events, this.sourceOf);
  }
}

/**
 * Warnings as a RecordingFileFeed replay meets them: a file's come when its end is reached, that is in
 * order of its last event's time (a file without events first), equal times in the order given.
 */
function inReplayOrder(sources: readonly ParsedSource[], skipped: readonly MarketStreamWarning[][]): MarketStreamWarning[] {
  const lastTime = (i: number): number => sources[i]?.events.at(-1)?.ts ?? Number.NEGATIVE_INFINITY;
  const order = sources.map((_, i) => i).sort((a, b) => lastTime(a) - lastTime(b) || a - b);
  return order.flatMap((i) => skipped[i] ?? []);
}

/** Index of the first event after `to` (times are nondecreasing). */
function firstAfter(events: readonly MarketEvent[], to: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.ts <= to) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

async function readUntil(reader: MarketStreamReader, to: number): Promise<MarketEvent[]> {
  const events: MarketEvent[] = [];
  const batches = reader.eventBatches();
  for (;;) {
    const read = await batches.next();
    if (read.done === true) return events;
    for (const event of read.value) {
      if (event.ts > to) {
        await batches.return(undefined);
        return events;
      }
      events.push(event);
    }
  }
}

/** K-way merge by time; on equal times the earlier source wins (strict `<`, as RecordingFileFeed.next). */
function merge(sources: readonly ParsedSource[]): { events: MarketEvent[]; sourceOf: Uint32Array } {
  const only = sources.length === 1 ? sources[0] : undefined;
  if (only !== undefined) return { events: only.events, sourceOf: new Uint32Array(only.events.length) };
  const total = sources.reduce((n, s) => n + s.events.length, 0);
  const events: MarketEvent[] = new Array<MarketEvent>(total);
  const sourceOf = new Uint32Array(total);
  const pos = sources.map(() => 0);
  for (let out = 0; out < total; out++) {
    let pick = -1;
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < sources.length; i++) {
      const head = sources[i]!.events[pos[i]!];
      if (head !== undefined && head.ts < best) {
        best = head.ts;
        pick = i;
      }
    }
    const event = sources[pick]?.events[pos[pick]!];
    if (event === undefined) throw new InvariantError('MERGE_SHORT', 'the recordings ran out before the merge was done');
    pos[pick]!++;
    events[out] = event;
    sourceOf[out] = pick;
  }
  return { events, sourceOf };
}

/** One replay of a ParsedRecording: everything is in memory, so `load` has nothing to do. */
class ParsedRecordingFeed implements RecordingFeed {
  private pos = 0;
  private readonly handedOut: number[];

  constructor(
    readonly instruments: readonly SimInstrument[],
    readonly headers: ReadonlyArray<{ readonly path: string; readonly header: MarketStreamHeader }>,
    private readonly events: readonly MarketEvent[],
    private readonly sourceOf: Uint32Array,
  ) {
    this.handedOut = headers.map(() => 0);
  }

  counts(): ReadonlyArray<{ readonly path: string; readonly events: number }> {
    return this.headers.map((h, i) => ({ path: h.path, events: this.handedOut[i] ?? 0 }));
  }

  covers(): boolean {
    return true;
  }

  load(): Promise<void> {
    return Promise.resolve();
  }

  exhausted(): boolean {
    return this.pos >= this.events.length;
  }

  peekTime(): number | undefined {
    return this.events[this.pos]?.ts;
  }

  next(): MarketEvent {
    const event = this.events[this.pos];
    if (event === undefined) throw new InvariantError('FEED_EXHAUSTED', 'the market feed has no next event');
    this.handedOut[this.sourceOf[this.pos]!]!++;
    this.pos++;
    return replayEvent(event);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
