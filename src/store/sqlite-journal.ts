import type { Database, Statement } from 'better-sqlite3';
import { InvariantError } from '../core/errors.js';
import type { JournalEntry, JournalState, NewJournalEntry, OrderJournal } from '../model/journal.js';
import { decodeCommand, encodeCommand } from './command-codec.js';

interface JournalRow {
  readonly id: string;
  readonly strategy_id: string;
  readonly intent_key: string | null;
  readonly symbol: string;
  readonly command: string;
  readonly state: string;
  readonly exchange_order_id: string | null;
  readonly detail: string | null;
  readonly created_at: number;
  readonly updated_at: number;
}

const STATES: ReadonlySet<string> = new Set<JournalState>(['pending', 'sent', 'unknown', 'accepted', 'rejected', 'done']);
const COLUMNS = 'id, strategy_id, intent_key, symbol, command, state, exchange_order_id, detail, created_at, updated_at';

/**
 * The order journal in SQLite. Every method is one autocommit statement, or part of the one commit of
 * `atomically`: a write is in the operating system (or, with `synchronous=FULL`, on disk) before the
 * call returns, so the executor may send once it is back. Each commit is reported to `committed`
 * (the store's group commit fsyncs it soon after: state-store.ts). Entries are listed in append order.
 */
export class SqliteJournal implements OrderJournal {
  private readonly insert: Statement<[string, string, string | null, string, string, string, number, number]>;
  private readonly byId: Statement<[string], JournalRow>;
  private readonly byKey: Statement<[string, string], JournalRow>;
  private readonly byIdOrKey: Statement<[string, string, string | null], JournalRow>;
  private readonly change: Statement<[string, number, string | null, string | null, string]>;
  private readonly open: Statement<[], JournalRow>;
  private readonly sequence: Statement<[string], { value: number }>;
  private readonly reserve: Statement<[string, number]>;
  private readonly purge: Statement<[number]>;
  private readonly transaction: (work: () => unknown) => unknown;

  constructor(
    private readonly db: Database,
    private readonly committed: () => void = () => undefined,
  ) {
    this.insert = db.prepare(
      `INSERT INTO journal (id, strategy_id, intent_key, symbol, command, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM journal WHERE id = ?`);
    this.byKey = db.prepare(`SELECT ${COLUMNS} FROM journal WHERE strategy_id = ? AND intent_key = ? ORDER BY seq DESC LIMIT 1`);
    // One statement for the admission's two lookups (the turn's first, cold, SQLite work): the row
    // found by id, else the newest by key; each subquery reads its covering index.
    this.byIdOrKey = db.prepare(
      `SELECT ${COLUMNS} FROM journal WHERE seq = COALESCE((SELECT seq FROM journal WHERE id = ?), ` +
        `(SELECT seq FROM journal WHERE strategy_id = ? AND intent_key = ? ORDER BY seq DESC LIMIT 1))`,
    );
    this.change = db.prepare(
      `UPDATE journal SET state = ?, updated_at = ?, exchange_order_id = COALESCE(?, exchange_order_id), detail = COALESCE(?, detail) WHERE id = ?`,
    );
    this.open = db.prepare(`SELECT ${COLUMNS} FROM journal WHERE state IN ('pending', 'sent', 'unknown', 'accepted') ORDER BY seq`);
    this.sequence = db.prepare(
      `INSERT INTO journal_sequence (strategy_id, value) VALUES (?, 1) ON CONFLICT (strategy_id) DO UPDATE SET value = value + 1 RETURNING value`,
    );
    this.reserve = db.prepare(
      `INSERT INTO journal_sequence (strategy_id, value) VALUES (?, ?) ON CONFLICT (strategy_id) DO UPDATE SET value = MAX(value, excluded.value)`,
    );
    this.purge = db.prepare(`DELETE FROM journal WHERE state IN ('rejected', 'done') AND updated_at < ?`);
    // Nested inside another transaction, it becomes a savepoint of that one.
    this.transaction = db.transaction((work: () => unknown) => work());
  }

  atomically<T>(work: () => T): T {
    const answer = this.transaction(work) as T;
    this.wrote();
    return answer;
  }

  /** After a write: a commit when no transaction is open any more (else the outermost one commits it). */
  private wrote(): void {
    if (!this.db.inTransaction) this.committed();
  }

  append(entry: NewJournalEntry): void {
    const { id, strategyId, intentKey, command, time } = entry;
    // The id's UNIQUE constraint is the duplicate check (no lookup before every insert on the order path).
    try {
      this.insert.run(id, strategyId, intentKey ?? null, command.symbol, encodeCommand(command), entry.state ?? 'pending', time, time);
    } catch (error: unknown) {
      if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new InvariantError('JOURNAL_DUPLICATE', `journal entry ${id} exists`);
      }
      throw error;
    }
    this.wrote();
  }

  get(id: string): JournalEntry | undefined {
    const row = this.byId.get(id);
    return row === undefined ? undefined : toEntry(row);
  }

  /** The newest entry with this key (a key may be reused once its entry is settled). */
  findByKey(strategyId: string, intentKey: string): JournalEntry | undefined {
    const row = this.byKey.get(strategyId, intentKey);
    return row === undefined ? undefined : toEntry(row);
  }

  findForAdmission(id: string, strategyId: string, intentKey: string | undefined): JournalEntry | undefined {
    const row = this.byIdOrKey.get(id, strategyId, intentKey ?? null);
    return row === undefined ? undefined : toEntry(row);
  }

  /** Absent `exchangeOrderId` or `detail` keep their stored values. Throws on an unknown id. */
  update(id: string, change: { state: JournalState; time: number; exchangeOrderId?: string; detail?: string }): void {
    const { changes } = this.change.run(change.state, change.time, change.exchangeOrderId ?? null, change.detail ?? null, id);
    if (changes !== 1) throw new InvariantError('JOURNAL_UNKNOWN_ENTRY', `no journal entry ${id}`);
    this.wrote();
  }

  unsettled(): readonly JournalEntry[] {
    return this.open.all().map(toEntry);
  }

  nextSequence(strategyId: string): number {
    const row = this.sequence.get(strategyId);
    this.wrote();
    if (row === undefined) throw new InvariantError('JOURNAL_SEQUENCE', `no sequence for ${strategyId}`);
    return row.value;
  }

  reserveSequence(strategyId: string, used: number): void {
    this.reserve.run(strategyId, used);
    this.wrote();
  }

  purgeSettled(before: number): number {
    const { changes } = this.purge.run(before);
    this.wrote();
    return changes;
  }
}

function isState(text: string): text is JournalState {
  return STATES.has(text);
}

function toEntry(row: JournalRow): JournalEntry {
  const { state } = row;
  if (!isState(state)) throw new InvariantError('JOURNAL_CORRUPT', `entry ${row.id} has state ${state}`);
  return {
    id: row.id,
    strategyId: row.strategy_id,
    ...(row.intent_key === null ? {} : { intentKey: row.intent_key }),
    symbol: row.symbol,
    command: decodeCommand(row.command),
    state,
    ...(row.exchange_order_id === null ? {} : { exchangeOrderId: row.exchange_order_id }),
    ...(row.detail === null ? {} : { detail: row.detail }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
