import type { MarketChannel, MarketEvent } from './events.js';
import { decodeEventLine, eventToLineObject, explainBadEventLine } from './event-lines.js';
import type { MarketStreamHeader } from './format.js';
import { encodeHeader, marketStreamHeaderSchema } from './format.js';
import { MarketStreamError } from './stream-error.js';
import { TextSink } from './text-sink.js';

export interface MarketStreamWriterOptions {
  /**
   * 'line' (default): every line goes to the file as it is written, so a killed process leaves a
   * readable recording whose last line at worst is torn; a gzip stream is sync-flushed per line
   * (its bytes reach the file on the next turns of the event loop). 'buffered': lines are written in
   * 64 KiB batches and at close; for bulk generation.
   */
  readonly flush?: 'line' | 'buffered';
  /** zlib level for .gz files. Default 3: market data is mostly digits, and level 6 is ~4× slower for ~15 % smaller files. */
  readonly gzipLevel?: number;
}

const BATCH_BYTES = 64 * 1024;

/**
 * Writes a market stream to a file, gzipped when the name ends in `.gz`. The header is written on
 * open; events must come in nondecreasing time, for declared symbols and channels.
 */
export class MarketStreamWriter {
  private readonly sink: TextSink;
  private readonly perLine: boolean;
  private readonly symbols: ReadonlySet<string>;
  private readonly channels: ReadonlySet<MarketChannel>;
  private pending: string[] = [];
  private pendingBytes = 0;
  private lastTs: number;
  private lineNumber = 1;
  private closed: Promise<void> | undefined;

  private constructor(
    readonly path: string,
    readonly header: MarketStreamHeader,
    options: MarketStreamWriterOptions,
  ) {
    this.perLine = (options.flush ?? 'line') === 'line';
    this.symbols = new Set(header.symbols);
    this.channels = new Set(header.channels);
    this.lastTs = header.startTime;
    this.sink = new TextSink(path, options.gzipLevel ?? 3);
    this.append(`${encodeHeader(header)}\n`);
  }

  /** Creates (or truncates) `path` and writes the header. */
  static open(path: string, header: MarketStreamHeader, options: MarketStreamWriterOptions = {}): MarketStreamWriter {
    const parsed = marketStreamHeaderSchema.safeParse(header);
    if (!parsed.success) throw new MarketStreamError('BAD_HEADER', path, 1, `invalid header: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    return new MarketStreamWriter(path, header, options);
  }

  /**
   * Appends one event. Returns false when a gzip stream has a backlog: await `drain()` before writing
   * much more (plain files are written synchronously and always return true).
   */
  write(event: MarketEvent): boolean {
    if (this.sink.failure !== undefined) throw this.sink.failure;
    if (this.closed !== undefined) throw new MarketStreamError('UNREADABLE', this.path, undefined, 'write after close');
    const line = this.lineNumber + 1;
    if (!this.symbols.has(event.symbol)) throw new MarketStreamError('UNKNOWN_SYMBOL', this.path, line, `symbol ${event.symbol} is not in the header`);
    if (!this.channels.has(event.type)) throw new MarketStreamError('UNDECLARED_CHANNEL', this.path, line, `channel ${event.type} is not in the header`);
    if (event.ts < this.lastTs) throw new MarketStreamError('OUT_OF_ORDER', this.path, line, `event time ${event.ts} is before ${this.lastTs}`);
    const object = eventToLineObject(event);
    if (decodeEventLine(object) === undefined) throw new MarketStreamError('BAD_LINE', this.path, line, explainBadEventLine(object));
    this.lastTs = event.ts;
    this.lineNumber = line;
    return this.append(`${JSON.stringify(object)}\n`);
  }

  /** Resolves when a gzip backlog has been taken in. */
  drain(): Promise<void> {
    return this.sink.drain();
  }

  /** Resolves once every line written so far is in the file (buffered lines included). */
  sync(): Promise<void> {
    if (this.sink.failure !== undefined) return Promise.reject(this.sink.failure);
    this.emitPending();
    return this.sink.flush();
  }

  /** Writes what is buffered, finishes the gzip stream and closes the file. */
  close(): Promise<void> {
    this.closed ??= this.finish();
    return this.closed;
  }

  private append(text: string): boolean {
    if (this.perLine) return this.emit(text);
    this.pending.push(text);
    this.pendingBytes += text.length;
    if (this.pendingBytes >= BATCH_BYTES) return this.emitPending();
    return true;
  }

  private emitPending(): boolean {
    if (this.pending.length === 0) return true;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    return this.emit(text);
  }

  private emit(text: string): boolean {
    const accepted = this.sink.write(text);
    if (this.perLine) void this.sink.flush();
    return accepted;
  }

  private finish(): Promise<void> {
    return this.sink.close(() => this.emitPending());
  }
}
