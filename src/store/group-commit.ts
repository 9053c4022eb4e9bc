/**
 * Group commit of the state file's write-ahead log (`journal.durability: disk`): commits reach the
 * operating system at once (SQLite `synchronous=NORMAL`: one write(2), no fsync), and one fsync for
 * every commit made meanwhile runs on a worker thread right after the turn of the event loop that
 * made them, beside the order request those commits cleared. So the fsync (about 1 ms) is never
 * paid on the path from market data to the socket, and at most one fsync is in flight.
 *
 * What this leaves exposed: a machine crash (power loss, kernel panic) within that one fsync can
 * lose the journal records of orders already sent. Their client order ids are deterministic, so the
 * restart's reconciliation finds them on the exchange and adopts them by id (or cancels them under
 * `orphans: cancel`), and a re-sent id is refused by the exchange (-1141): nothing is placed twice.
 * A process crash loses nothing: the commit was in the operating system before the send.
 */
export interface GroupCommitOptions {
  /** Starts one fsync of the log file; `done` once it is on disk (or the fsync failed). */
  readonly sync: (done: (error: Error | null) => void) => void;
  /** Runs `work` after the current turn of the event loop (`setImmediate` live). */
  readonly defer: (work: () => void) => void;
  /**
   * An fsync failed: the commits it covered may not be on disk, and after a failed fsync the
   * operating system may have dropped them (a later fsync can succeed without them). Called once.
   */
  readonly onFailure: (error: Error) => void;
}

export interface GroupCommitStats {
  /** Commits made (each one write to the operating system). */
  readonly commits: number;
  /** Commits known to be on disk. */
  readonly durable: number;
  /** fsyncs completed. */
  readonly syncs: number;
}

export class GroupCommit {
  private commits = 0;
  private durableUpTo = 0;
  private syncs = 0;
  private syncing = false;
  private scheduled = false;
  private failed: Error | undefined;
  private closed = false;
  private afterSync: (() => void) | undefined;
  private waiters: Array<{ readonly upTo: number; readonly resolve: () => void; readonly reject: (error: Error) => void }> = [];
  /** Called when an fsync is about to start (crash tests). */
  beforeSync: (() => void) | undefined;

  constructor(private readonly options: GroupCommitOptions) {}

  /** A commit reached the operating system: it is covered by the next fsync. */
  committed(): void {
    this.commits += 1;
    this.schedule();
  }

  /** Commits not yet known to be on disk. */
  get unsynced(): number {
    return this.commits - this.durableUpTo;
  }

  get stats(): GroupCommitStats {
    return { commits: this.commits, durable: this.durableUpTo, syncs: this.syncs };
  }

  /** Resolves once every commit made so far is on disk; rejects when an fsync failed. */
  durable(): Promise<void> {
    if (this.failed !== undefined) return Promise.reject(this.failed);
    if (this.unsynced === 0) return Promise.resolve();
    const upTo = this.commits;
    return new Promise((resolve, reject) => this.waiters.push({ upTo, resolve, reject }));
  }

  /**
   * No more fsyncs are started; `then` runs once the one in flight (if any) is over, so the file it
   * syncs can be closed after it.
   */
  close(then: () => void): void {
    this.closed = true;
    if (this.syncing) this.afterSync = then;
    else then();
  }

  private schedule(): void {
    if (this.scheduled || this.syncing || this.closed || this.failed !== undefined) return;
    this.scheduled = true;
    this.options.defer(() => {
      this.scheduled = false;
      this.start();
    });
  }

  private start(): void {
    if (this.syncing || this.closed || this.failed !== undefined || this.unsynced === 0) return;
    const upTo = this.commits;
    this.syncing = true;
    this.beforeSync?.();
    this.options.sync((error) => this.finished(upTo, error));
  }

  private finished(upTo: number, error: Error | null): void {
    this.syncing = false;
    if (error !== null) {
      this.failed = error;
      for (const waiter of this.waiters.splice(0)) waiter.reject(error);
      this.options.onFailure(error);
    } else {
      this.syncs += 1;
      this.durableUpTo = upTo;
      const still: typeof this.waiters = [];
      for (const waiter of this.waiters) {
        if (waiter.upTo <= upTo) waiter.resolve();
        else still.push(waiter);
      }
      this.waiters = still;
    }
    const then = this.afterSync;
    this.afterSync = undefined;
    if (then !== undefined) then();
    else if (this.unsynced > 0) this.schedule();
  }
}
