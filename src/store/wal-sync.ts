import { closeSync, fdatasync, openSync } from 'node:fs';

/**
 * fdatasync(2) of a SQLite write-ahead log on libuv's worker threads, so the event loop never waits
 * for the disk. The file is opened at the first sync (SQLite creates it with the first commit); an
 * fsync of any descriptor of a file flushes every write made to it, SQLite's included.
 */
export class WalSync {
  private fd: number | undefined;

  constructor(private readonly path: string) {}

  sync(done: (error: Error | null) => void): void {
    try {
      this.fd ??= openSync(this.path, 'r+');
    } catch (error: unknown) {
      done(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    fdatasync(this.fd, (error) => done(error));
  }

  /** Closes the descriptor (after the last sync has called back). */
  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) closeSync(fd);
  }
}

