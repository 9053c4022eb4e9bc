import type { OrderJournal } from '../../src/model/journal.js';

/** What better-sqlite3 throws when the disk is full: an Error with SQLite's code. */
export class StorageError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A journal whose writes fail on demand, as SQLite's do when the disk is full (`SQLITE_FULL`) or the
 * device fails (`SQLITE_IOERR`): fault injection without a full file system. Reads keep working.
 */
export class FailingJournal implements OrderJournal {
  /** While set, every write throws this SQLite code. */
  failWith: string | undefined;
  /** While set, reads throw this SQLite code too (a damaged page: `SQLITE_CORRUPT`). */
  failReadsWith: string | undefined;
  /** Writes refused so far. */
  refused = 0;

  constructor(private readonly inner: OrderJournal) {}

  private check(): void {
    if (this.failWith === undefined) return;
    this.refused += 1;
    throw new StorageError(this.failWith, this.failWith === 'SQLITE_FULL' ? 'database or disk is full' : 'disk I/O error');
  }

  append(entry: Parameters<OrderJournal['append']>[0]): void {
    this.check();
    this.inner.append(entry);
  }

  private checkRead(): void {
    if (this.failReadsWith !== undefined) throw new StorageError(this.failReadsWith, 'database disk image is malformed');
  }

  get(id: string): ReturnType<OrderJournal['get']> {
    this.checkRead();
    return this.inner.get(id);
  }

  findByKey(strategyId: string, intentKey: string): ReturnType<OrderJournal['findByKey']> {
    this.checkRead();
    return this.inner.findByKey(strategyId, intentKey);
  }

  findForAdmission(id: string, strategyId: string, intentKey: string | undefined): ReturnType<OrderJournal['findForAdmission']> {
    this.checkRead();
    return this.inner.findForAdmission(id, strategyId, intentKey);
  }

  update(id: string, change: Parameters<OrderJournal['update']>[1]): void {
    this.check();
    this.inner.update(id, change);
  }

  unsettled(): ReturnType<OrderJournal['unsettled']> {
    this.checkRead();
    return this.inner.unsettled();
  }

  nextSequence(strategyId: string): number {
    this.check();
    return this.inner.nextSequence(strategyId);
  }

  reserveSequence(strategyId: string, used: number): void {
    this.check();
    this.inner.reserveSequence(strategyId, used);
  }

  purgeSettled(before: number): number {
    this.check();
    return this.inner.purgeSettled(before);
  }

  atomically<T>(work: () => T): T {
    // The commit fails: the work's writes are rolled back with it.
    return this.inner.atomically(() => {
      const answer = work();
      this.check();
      return answer;
    });
  }
}
