import type { Database } from 'better-sqlite3';

/**
 * Commits between two checkpoints of the write-ahead log: an order's commit writes 3–5 pages, so
 * about SQLite's own 1000-page threshold (`wal_autocheckpoint`) in the daemon's commits.
 */
export const CHECKPOINT_EVERY_COMMITS = 250;

/**
 * Checkpoints of the daemon's write-ahead log, taken after the turn of the event loop that made the
 * commits instead of inside one of them. SQLite's automatic checkpoint runs in the commit that takes
 * the log past its threshold: it copies the log into the file and fsyncs both (with
 * `synchronous=NORMAL` too), 1.5–20 ms on a loaded VM, once every ~75 ticks of a bench strategy that
 * cancels and places. That commit is an order's journal commit, so the order (and every order of the
 * same tick after it) went out that much later. Here the automatic checkpoint is off and a passive
 * checkpoint runs in `defer` (`setImmediate` live) once CHECKPOINT_EVERY_COMMITS commits were made:
 * after the tick's requests are on the socket; so does the restart of the log that follows it. What is durable, and when, is unchanged: the commits
 * are in the log (and the group commit fsyncs it) whether or not they were copied into the file yet.
 */
export class DeferredCheckpoints {
  private commits = 0;
  private scheduled = false;

  constructor(
    private readonly db: Database,
    private readonly defer: (work: () => void) => void,
    private readonly every = CHECKPOINT_EVERY_COMMITS,
  ) {
    db.pragma('wal_autocheckpoint = 0');
  }

  /** A commit reached the log: one more toward the next checkpoint. */
  committed(): void {
    this.commits += 1;
    if (this.commits < this.every || this.scheduled) return;
    this.scheduled = true;
    this.defer(() => this.checkpoint());
  }

  private checkpoint(): void {
    this.scheduled = false;
    // Closed meanwhile: the close's own checkpoint took everything.
    if (!this.db.open) return;
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
      // The next commit restarts the log from its start, and SQLite fsyncs the log's new header
      // first (1.5–4 ms here): a commit of the schema version as it is takes that restart now.
      const version: unknown = this.db.pragma('user_version', { simple: true });
      if (typeof version === 'number' && Number.isInteger(version)) this.db.pragma(`user_version = ${version}`);
      this.commits = 0;
    } catch {
      // As SQLite does with a failed automatic checkpoint: the log still holds every commit, and the
      // next commit tries again. An I/O error that matters fails that commit or the group's fsync, loudly.
    }
  }
}
