import type { Logger } from '../../core/logger.js';
import type { NewJournalEntry, OrderJournal } from '../../model/journal.js';
import { isStorageFailure } from './journal-health.js';
import type { JournalHealth } from './journal-health.js';
import type { Tracked } from './order-tracker.js';

interface Row {
  readonly entry: NewJournalEntry;
  readonly tracked: Tracked;
}

/**
 * Journal rows of cancels, committed after their send (executor.ts says why a cancel may go first).
 * The rows of a turn are committed at the first of: the microtask after the turn (its other intents,
 * such as the place after a cancel, are on the socket by then), the handling of a reply or a bus
 * event (`commit` is called before either), a flush. A commit that fails leaves the cancels tracked
 * in memory only and the journal unhealthy, as any failed write does.
 */
export class AfterSendRows {
  private rows: Row[] = [];
  private queued = false;
  private readonly commitQueued = (): void => {
    this.queued = false;
    this.commit();
  };

  constructor(
    private readonly journal: OrderJournal,
    private readonly health: JournalHealth,
    private readonly log: Logger,
  ) {}

  /** A sent cancel's row, to be committed before anything about it is handled. */
  add(entry: NewJournalEntry, tracked: Tracked): void {
    this.rows.push({ entry, tracked });
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(this.commitQueued);
  }

  /** Commits the rows waiting: one statement for one row, one transaction for several. */
  commit(): void {
    const rows = this.rows;
    if (rows.length === 0) return;
    this.rows = [];
    const journal = this.journal;
    try {
      if (rows.length === 1) journal.append(rows[0]!.entry);
      else journal.atomically(() => rows.forEach((row) => journal.append(row.entry)));
    } catch (error: unknown) {
      for (const row of rows) row.tracked.unjournaled = true;
      if (isStorageFailure(error)) this.health.failed(error);
      else this.log.error({ err: error, ids: rows.map((row) => row.entry.id) }, 'sent cancels could not be journaled: tracked in memory only');
      return;
    }
    this.health.wrote();
  }
}
