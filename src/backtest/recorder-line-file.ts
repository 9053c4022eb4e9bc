import { closeSync, openSync, writeSync } from 'node:fs';
import { constants as zlibConstants, createGzip } from 'node:zlib';
import type { Gzip } from 'node:zlib';

/**
 * A JSON Lines file written in whole lines (the account section): lines wait in memory until `sync()`,
 * which writes them in one write ending in "\n" (and sync-flushes a gzip stream, so what is on disk
 * always decodes). A killed process leaves at most a torn last line. Gzipped when the name ends in ".gz",
 * like MarketStreamWriter, whose conventions it follows.
 */
export class LineFile {
  private readonly fd: number;
  private readonly gzip: Gzip | undefined;
  private pending: string[] = [];
  private failure: Error | undefined;
  private closed: Promise<void> | undefined;

  /** Creates (or truncates) `path`; `firstLine` (the header) is written at once. */
  constructor(
    readonly path: string,
    firstLine: string,
    gzipLevel = 3,
  ) {
    this.fd = openSync(path, 'w');
    if (path.endsWith('.gz')) {
      const gzip = createGzip({ level: gzipLevel });
      gzip.on('data', (chunk: Buffer) => {
        try {
          writeSync(this.fd, chunk);
        } catch (error) {
          this.failure ??= error instanceof Error ? error : new Error(String(error));
        }
      });
      gzip.on('error', (error) => {
        this.failure ??= error;
      });
      this.gzip = gzip;
    }
    this.pending.push(`${firstLine}\n`);
  }

  /** Queues one line (without its line end). */
  append(line: string): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.closed !== undefined) throw new Error(`${this.path}: write after close`);
    this.pending.push(`${line}\n`);
  }

  /** Resolves once every line appended so far is in the file. */
  sync(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    this.emitPending();
    const gzip = this.gzip;
    if (gzip === undefined) return Promise.resolve();
    return new Promise((resolve) => gzip.flush(zlibConstants.Z_SYNC_FLUSH, () => resolve()));
  }

  close(): Promise<void> {
    this.closed ??= this.finish();
    return this.closed;
  }

  private emitPending(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    if (this.gzip === undefined) writeSync(this.fd, text);
    else this.gzip.write(text);
  }

  private async finish(): Promise<void> {
    try {
      this.emitPending();
      const gzip = this.gzip;
      if (gzip !== undefined) {
        await new Promise<void>((resolve, reject) => {
          gzip.once('end', resolve);
          gzip.once('error', reject);
          gzip.end();
          gzip.resume();
        });
      }
    } finally {
      closeSync(this.fd);
    }
    if (this.failure !== undefined) throw this.failure;
  }
}
