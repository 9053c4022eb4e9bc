import type { Subscription } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { ExchangeFailure } from '../../model/exchange-port.js';
import type { OrderJournal } from '../../model/journal.js';

/** The journal's writability as the status, readiness and risk engine see it. */
export interface JournalHealthState {
  readonly writable: boolean;
  /** When writes began to fail (while not writable). */
  readonly since?: number;
  /** The newest write failure, kept after recovery (a component's last error). */
  readonly lastError?: { readonly message: string; readonly at: number };
  /** Failed writes since start, probes included. */
  readonly failures: number;
}

/** The sequence the probe writes to: a strategy id no strategy can have (`:` is not allowed in ids). */
export const JOURNAL_PROBE_ID = 'stratd:journal-probe';
const PROBE_FIRST_MS = 1000;
const PROBE_MAX_MS = 60_000;

/**
 * Whether the order journal can be written. A write that fails for a storage reason (disk full, I/O
 * error, read-only file: a SqliteError, `SQLITE_*` code) makes it unwritable: opening orders are then
 * denied (JOURNAL_UNAVAILABLE), /readyz is not ready and /status shows the error; a probe write
 * retries with backoff (1 s doubling to 60 s), and the first write that succeeds again, probe or
 * order, makes it writable: trading resumes by itself.
 */
export class JournalHealth {
  private current: JournalHealthState = { writable: true, failures: 0 };
  private probe: Subscription | undefined;
  private attempts = 0;
  private closed = false;

  constructor(
    private readonly journal: OrderJournal,
    private readonly time: TimeSource,
    private readonly log: Logger,
    private readonly onChange: (state: JournalHealthState) => void = () => undefined,
  ) {}

  get state(): JournalHealthState {
    return this.current;
  }

  /** The reason opening orders are held back, or undefined while the journal is writable. */
  get unavailable(): string | undefined {
    return this.current.writable ? undefined : `the order journal cannot be written (${this.current.lastError?.message ?? 'unknown error'})`;
  }

  /** A write failed for a storage reason: answers the failure to hand the command's strategy. */
  failed(error: unknown): ExchangeFailure {
    const now = this.time.clock.now();
    const message = storageMessage(error);
    const wasWritable = this.current.writable;
    this.current = { writable: false, since: this.current.since ?? now, lastError: { message, at: now }, failures: this.current.failures + 1 };
    if (wasWritable) {
      this.log.error({ error: message }, 'the order journal cannot be written: opening orders are held back until a write succeeds again');
      this.attempts = 0;
      this.scheduleProbe();
    }
    this.onChange(this.current);
    return journalFailure(message);
  }

  /** A write succeeded: the journal is writable (again). */
  wrote(): void {
    if (this.current.writable) return;
    const since = this.current.since;
    this.current = { writable: true, failures: this.current.failures, ...(this.current.lastError === undefined ? {} : { lastError: this.current.lastError }) };
    this.probe?.unsubscribe();
    this.probe = undefined;
    this.log.warn({ downForMs: since === undefined ? undefined : this.time.clock.now() - since }, 'the order journal is writable again: trading resumes');
    this.onChange(this.current);
  }

  close(): void {
    this.closed = true;
    this.probe?.unsubscribe();
    this.probe = undefined;
  }

  private scheduleProbe(): void {
    if (this.closed || this.probe !== undefined) return;
    const delay = Math.min(PROBE_FIRST_MS * 2 ** this.attempts, PROBE_MAX_MS);
    this.attempts += 1;
    this.probe = this.time.scheduler.schedule(() => {
      this.probe = undefined;
      if (this.current.writable) return;
      try {
        this.journal.atomically(() => this.journal.nextSequence(JOURNAL_PROBE_ID));
      } catch (error: unknown) {
        if (!isStorageFailure(error)) this.log.error({ err: error }, 'journal probe write failed');
        this.failed(error);
        this.scheduleProbe();
        return;
      }
      this.wrote();
    }, delay);
  }
}

/**
 * A write that failed because of the storage (SQLite's `SQLITE_FULL`, `SQLITE_IOERR_*`,
 * `SQLITE_READONLY`, …), not because of a bug. Duck-typed: SqliteError's class differs per module
 * instance (state-store.ts).
 */
export function isStorageFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && error.code.startsWith('SQLITE_');
}

function storageMessage(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : 'ERROR';
  const text = typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' ? error.message : String(error);
  return `${code}: ${text}`;
}

/** What the strategy of a command that could not be journaled learns: nothing was sent; retry later. */
export function journalFailure(message: string): ExchangeFailure {
  return { kind: 'invalid', code: 'JOURNAL_UNAVAILABLE', message: `the order journal cannot be written (${message}): nothing was sent`, retryable: true };
}
