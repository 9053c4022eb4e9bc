import { closeSync, openSync, writeSync } from 'node:fs';
import { constants as zlibConstants, createGzip } from 'node:zlib';
import type { Gzip } from 'node:zlib';

/**
 * A text file created (or truncated) for writing, gzipped when its name ends in ".gz". Writes go to
 * disk synchronously (plain) or through the gzip stream; the first write error is kept and reported
 * by `close`. Shared by the market-stream writer and the recorder's account section.
 */
export class TextSink {
  private readonly fd: number;
  private readonly gzip: Gzip | undefined;
  private error: Error | undefined;

  constructor(
    readonly path: string,
    gzipLevel = 3,
  ) {
    this.fd = openSync(path, 'w');
    if (path.endsWith('.gz')) {
      const gzip = createGzip({ level: gzipLevel });
      gzip.on('data', (chunk: Buffer) => {
        try {
          writeSync(this.fd, chunk);
        } catch (error) {
          this.error ??= error instanceof Error ? error : new Error(String(error));
        }
      });
      gzip.on('error', (error) => {
        this.error ??= error;
      });
      this.gzip = gzip;
    }
  }

  /** The first write error, if any. */
  get failure(): Error | undefined {
    return this.error;
  }

  /** Writes text; false when the gzip stream asks to wait (plain files always take it). */
  write(text: string): boolean {
    if (this.gzip === undefined) {
      writeSync(this.fd, text);
      return true;
    }
    return this.gzip.write(text);
  }

  /** Resolves when a gzip backlog has been taken in. */
  drain(): Promise<void> {
    const gzip = this.gzip;
    if (gzip === undefined || !gzip.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => gzip.once('drain', () => resolve()));
  }

  /** Sync-flushes the gzip stream so that what is on disk decodes; resolves once it is written. */
  flush(): Promise<void> {
    const gzip = this.gzip;
    if (gzip === undefined) return Promise.resolve();
    return new Promise((resolve) => gzip.flush(zlibConstants.Z_SYNC_FLUSH, () => resolve()));
  }

  /** Runs `last` (writing what is still buffered), finishes the gzip stream and closes the file; rejects with the first write error. */
  async close(last: () => void = () => undefined): Promise<void> {
    try {
      last();
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
    if (this.error !== undefined) throw this.error;
  }
}
