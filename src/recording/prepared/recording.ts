import { InvariantError } from '../../core/errors.js';
import type { MarketEvent } from '../../sim/market-stream/events.js';
import type { MarketStreamHeader } from '../../sim/market-stream/format.js';
import type { SimInstrument } from '../../sim/market-stream/instruments.js';
import type { MarketStreamWarning } from '../../sim/market-stream/stream-error.js';
import type { StepGrid } from '../../sim/market-stream/ticks.js';
import { MarketStreamError } from '../../sim/market-stream/stream-error.js';
import { BacktestError } from '../error.js';
import type { RecordingFeed, RecordingReplay } from '../feed.js';
import { instrumentsOf } from '../instruments.js';
import type { PreparedCacheOptions } from './cache.js';
import { loadPrepared } from './cache.js';
import type { PreparedColumns, SharedColumns } from './columns.js';

/** A PreparedRecording as structured-cloneable data, its columns in shared memory (`PreparedRecording.shared`). */
export interface SharedPreparedRecording {
  readonly sources: ReadonlyArray<{ readonly path: string; readonly columns: SharedColumns; readonly end: number }>;
  readonly size: number;
  readonly to: number;
}

interface Source {
  readonly path: string;
  readonly header: MarketStreamHeader;
  readonly columns: PreparedColumns;
  /** Rows kept: those at or before `to`. */
  readonly end: number;
}

/**
 * One or more recordings in their prepared (columnar) form, merged in time order exactly as
 * ParsedRecording and RecordingFileFeed merge them (equal times: the recording given first goes first)
 * and cut after `to`; a torn last line is reported only when nothing was cut, as the JSONL reader,
 * which stops reading at `to`, reports it. `replay()` hands out a fresh cursor each time; events are
 * built from the columns as they are handed out.
 */
export class PreparedRecording implements RecordingReplay {
  readonly instruments: readonly SimInstrument[];
  readonly headers: ReadonlyArray<{ readonly path: string; readonly header: MarketStreamHeader }>;
  readonly warnings: readonly MarketStreamWarning[];

  private constructor(
    private readonly sources: readonly Source[],
    /** Merged order: per position, its recording and row (undefined with one recording: row = position). */
    private readonly order: { readonly source: Uint32Array; readonly row: Uint32Array } | undefined,
    readonly size: number,
    readonly to: number,
  ) {
    this.headers = sources.map((s) => ({ path: s.path, header: s.header }));
    this.instruments = instrumentsOf(this.headers);
    this.warnings = tornWarnings(sources);
  }

  /** Loads (or builds) each recording's prepared form; throws MarketStreamError or BacktestError as the JSONL reading would. */
  static async load(paths: readonly string[], to: number | undefined, cache: PreparedCacheOptions): Promise<PreparedRecording> {
    if (paths.length === 0) throw new BacktestError('NO_RECORDINGS', 'no recording given');
    const until = to ?? Number.POSITIVE_INFINITY;
    const sources: Source[] = [];
    for (const path of paths) {
      const columns = await loadPrepared(path, cache);
      sources.push({ path, header: columns.header, columns, end: cutAfter(columns.ts, until) });
    }
    const size = sources.reduce((n, s) => n + s.end, 0);
    return new PreparedRecording(sources, sources.length === 1 ? undefined : merge(sources, size), size, until);
  }

  /** This recording for another thread (`fromShared`): its columns copied once into shared memory, none decoded again there. */
  shared(): SharedPreparedRecording {
    return { sources: this.sources.map((s) => ({ path: s.path, columns: s.columns.shared(), end: s.end })), size: this.size, to: this.to };
  }

  /** The recording `shared()` made in another thread, over the same shared columns. */
  static async fromShared(shared: SharedPreparedRecording): Promise<PreparedRecording> {
    const { PreparedColumns } = await import('./columns.js');
    const sources = shared.sources.map((s): Source => {
      const columns = PreparedColumns.fromShared(s.columns);
      return { path: s.path, header: columns.header, columns, end: s.end };
    });
    return new PreparedRecording(sources, sources.length === 1 ? undefined : merge(sources, shared.size), shared.size, shared.to);
  }

  until(to: number): PreparedRecording {
    if (to > this.to) throw new InvariantError('RECORDING_RANGE', `the recording was loaded up to ${this.to}, cannot replay it up to ${to}`);
    const sources = this.sources.map((s) => ({ ...s, end: Math.min(s.end, cutAfter(s.columns.ts, to)) }));
    const size = sources.reduce((n, s) => n + s.end, 0);
    return new PreparedRecording(sources, sources.length === 1 ? undefined : merge(sources, size), size, to);
  }

  get lastTime(): number | undefined {
    let last: number | undefined;
    for (const s of this.sources) if (s.end > 0 && (last === undefined || s.columns.ts[s.end - 1]! > last)) last = s.columns.ts[s.end - 1];
    return last;
  }

  replay(): RecordingFeed {
    return new PreparedFeed(this, this.sources, this.order, this.size);
  }
}

/**
 * Makes sure each recording's prepared form is there (built and written when not), for runs that read it
 * later (a sweep's workers). A recording that cannot be read is left to those runs to report.
 */
export async function prepareRecordings(paths: readonly string[], cache: PreparedCacheOptions): Promise<void> {
  for (const path of paths) {
    try {
      await loadPrepared(path, cache);
    } catch (error) {
      if (!(error instanceof MarketStreamError)) throw error;
    }
  }
}

/** The first row after `to` (times are nondecreasing). */
function cutAfter(ts: Float64Array, to: number): number {
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! <= to) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** K-way merge by time; on equal times the earlier recording wins. */
function merge(sources: readonly Source[], size: number): { source: Uint32Array; row: Uint32Array } {
  const source = new Uint32Array(size);
  const row = new Uint32Array(size);
  const pos = sources.map(() => 0);
  for (let out = 0; out < size; out++) {
    let pick = -1;
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < sources.length; i++) {
      const s = sources[i]!;
      const p = pos[i]!;
      if (p < s.end && s.columns.ts[p]! < best) {
        best = s.columns.ts[p]!;
        pick = i;
      }
    }
    if (pick < 0) throw new InvariantError('MERGE_SHORT', 'the recordings ran out before the merge was done');
    source[out] = pick;
    row[out] = pos[pick]!++;
  }
  return { source, row };
}

/**
 * Torn last lines as a JSONL replay meets them: a file's come when its end is reached (only when `to` cut
 * nothing), in order of its last kept event's time (a file without events first), equal times in the order given.
 */
function tornWarnings(sources: readonly Source[]): MarketStreamWarning[] {
  const lastTime = (s: Source): number => (s.end === 0 ? Number.NEGATIVE_INFINITY : s.columns.ts[s.end - 1]!);
  const order = sources.map((_, i) => i).sort((a, b) => lastTime(sources[a]!) - lastTime(sources[b]!) || a - b);
  const warnings: MarketStreamWarning[] = [];
  for (const i of order) {
    const s = sources[i]!;
    const torn = s.columns.metadata.torn;
    if (torn !== undefined && s.end === s.columns.size) warnings.push({ code: 'TORN_LAST_LINE', file: s.path, line: torn.line, message: torn.message });
  }
  return warnings;
}

/** One replay of a PreparedRecording: all in memory, so `load` has nothing to do. */
class PreparedFeed implements RecordingFeed {
  readonly instruments: readonly SimInstrument[];
  readonly headers: ReadonlyArray<{ readonly path: string; readonly header: MarketStreamHeader }>;
  private pos = 0;
  private readonly handedOut: number[];
  /** With one recording: its columns and times, read directly. */
  private readonly only: PreparedColumns | undefined;
  private readonly onlyTs: Float64Array | undefined;
  /** Where the last event handed out came from (`lastPriceUnits`). */
  private lastColumns: PreparedColumns | undefined;
  private lastRow = 0;

  constructor(
    recording: PreparedRecording,
    private readonly sources: readonly Source[],
    private readonly order: { readonly source: Uint32Array; readonly row: Uint32Array } | undefined,
    private readonly size: number,
  ) {
    this.instruments = recording.instruments;
    this.headers = recording.headers;
    this.handedOut = sources.map(() => 0);
    this.only = order === undefined ? sources[0]?.columns : undefined;
    this.onlyTs = this.only?.ts;
  }

  counts(): ReadonlyArray<{ readonly path: string; readonly events: number }> {
    return this.sources.map((s, i) => ({ path: s.path, events: this.handedOut[i] ?? 0 }));
  }

  covers(): boolean {
    return true;
  }

  load(): Promise<void> {
    return Promise.resolve();
  }

  exhausted(): boolean {
    return this.pos >= this.size;
  }

  peekTime(): number | undefined {
    const pos = this.pos;
    if (pos >= this.size) return undefined;
    if (this.onlyTs !== undefined) return this.onlyTs[pos];
    const order = this.order!;
    return this.sources[order.source[pos]!]!.columns.ts[order.row[pos]!];
  }

  next(): MarketEvent {
    const pos = this.pos;
    if (pos >= this.size) throw new InvariantError('FEED_EXHAUSTED', 'the market feed has no next event');
    this.pos = pos + 1;
    if (this.only !== undefined) {
      this.handedOut[0]!++;
      this.lastColumns = this.only;
      this.lastRow = pos;
      return this.only.event(pos);
    }
    const order = this.order!;
    const source = order.source[pos]!;
    this.handedOut[source]!++;
    const columns = this.sources[source]!.columns;
    const row = order.row[pos]!;
    this.lastColumns = columns;
    this.lastRow = row;
    return columns.event(row);
  }

  lastPriceUnits(grid: StepGrid): number | undefined {
    return this.lastColumns?.priceUnits(this.lastRow, grid);
  }

  lastBestBidUnits(grid: StepGrid): number | undefined {
    return this.lastColumns?.bestBidUnits(this.lastRow, grid);
  }

  lastBestAskUnits(grid: StepGrid): number | undefined {
    return this.lastColumns?.bestAskUnits(this.lastRow, grid);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
