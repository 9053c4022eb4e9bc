import type { ExchangeCommand } from './commands.js';

/**
 * Life of a journaled submission:
 * - `pending`: written, not yet sent (a crash here leaves a command the exchange may never have seen);
 * - `sent`: on the wire, no reply yet;
 * - `unknown`: the reply was lost (timeout, network, 5xx): settle by query, never resend blind;
 * - `accepted`: the exchange has it (open, or finished with fills);
 * - `rejected`: the exchange refused it or a query proved it absent;
 * - `done`: accepted and finished (filled, cancelled), or a non-placing command completed.
 */
export type JournalState = 'pending' | 'sent' | 'unknown' | 'accepted' | 'rejected' | 'done';

export interface JournalEntry {
  /** For place commands the order's client id; for others a unique id of the submission. */
  readonly id: string;
  readonly strategyId: string;
  readonly intentKey?: string;
  readonly symbol: string;
  readonly command: ExchangeCommand;
  readonly state: JournalState;
  readonly exchangeOrderId?: string;
  readonly detail?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What `OrderJournal.append` writes: a new submission, `pending` unless said otherwise. */
export interface NewJournalEntry {
  readonly id: string;
  readonly strategyId: string;
  readonly intentKey?: string;
  readonly command: ExchangeCommand;
  readonly time: number;
  readonly state?: 'pending' | 'sent';
}

/** The order journal: written before every send (store: SQLite; backtests may use an in-memory one). */
export interface OrderJournal {
  /**
   * Appends a new submission in state `pending`, or `sent` when it goes out in the same commit (one
   * row written instead of a row and its update). Throws if the id exists (a broken invariant).
   */
  append(entry: NewJournalEntry): void;
  get(id: string): JournalEntry | undefined;
  findByKey(strategyId: string, intentKey: string): JournalEntry | undefined;
  /**
   * What a new submission meets, in one read: the entry with its id, else the newest with its key
   * (`get(id) ?? findByKey(strategyId, intentKey)`).
   */
  findForAdmission(id: string, strategyId: string, intentKey: string | undefined): JournalEntry | undefined;
  update(id: string, change: { state: JournalState; time: number; exchangeOrderId?: string; detail?: string }): void;
  /** Entries not yet settled: pending, sent, unknown and accepted. */
  unsettled(): readonly JournalEntry[];
  /** Next value of the strategy's persistent submission counter (1, 2, 3, …). */
  nextSequence(strategyId: string): number;
  /**
   * Makes the strategy's next sequence value larger than `used` (a value the exchange has seen in one of
   * the state's ids but the journal lost: a power cut inside the fsync window). Never lowers it.
   */
  reserveSequence(strategyId: string, used: number): void;
  /** Deletes settled entries last updated before `time`; answers how many. */
  purgeSettled(before: number): number;
  /**
   * Runs `work` (its reads and writes of this journal) as one commit: all of it or none, and one
   * write to disk for all of it. Answers what `work` answers; rethrows what it throws (nothing kept).
   */
  atomically<T>(work: () => T): T;
}

/** A strategy's own persistent key-value store; values are JSON. */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
  keys(): readonly string[];
}
