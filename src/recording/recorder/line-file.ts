import { TextSink } from '../../sim/market-stream/text-sink.js';

/**
 * A JSON Lines file written in whole lines (the account section): lines wait in memory until `sync()`,
 * which writes them in one write ending in "\n" (and sync-flushes a gzip stream, so what is on disk
 * always decodes). A killed process leaves at most a torn last line. Gzipped when the name ends in ".gz",
 * on the same sink as MarketStreamWriter.
 */
export class LineFile {
  private readonly sink: TextSink;
  private pending: string[] = [];
  private closed: Promise<void> | undefined;

  /** Creates (or truncates) `path`; `firstLine` (the header) is written at once. */
  constructor(
    readonly path: string,
    firstLine: string,
    gzipLevel = 3,
  ) {
    this.sink = new TextSink(path, gzipLevel);
    this.pending.push(`${firstLine}\n`);
  }

  /** Queues one line (without its line end). */
  append(line: string): void {
    if (this.sink.failure !== undefined) throw this.sink.failure;
    if (this.closed !== undefined) throw new Error(`${this.path}: write after close`);
    this.pending.push(`${line}\n`);
  }

  /** Resolves once every line appended so far is in the file. */
  sync(): Promise<void> {
    if (this.sink.failure !== undefined) return Promise.reject(this.sink.failure);
    this.emitPending();
    return this.sink.flush();
  }

  close(): Promise<void> {
    this.closed ??= this.sink.close(() => this.emitPending());
    return this.closed;
  }

  private emitPending(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.sink.write(text);
  }
}
