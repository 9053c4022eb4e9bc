import { InvariantError } from '../core/errors.js';
import type { JournalEntry, JournalState, NewJournalEntry, OrderJournal } from '../model/journal.js';
import { emptyObjectArray } from '../core/empty-arrays.js';

const UNSETTLED: ReadonlySet<JournalState> = new Set<JournalState>(['pending', 'sent', 'unknown', 'accepted']);

interface Stored {
  /** Append order (SQLite's `seq`). */
  readonly seq: number;
  entry: JournalEntry;
}

/**
 * The order journal in memory, for backtests and sweeps: the SqliteJournal's contract (the same tests
 * run against both) without a database. Nothing outlives the process, which is all a backtest needs.
 * Commands are kept as given (they are immutable values); `atomically` undoes the work's writes when it
 * throws, a nested call only its own.
 */
export class MemoryJournal implements OrderJournal {
  private readonly entries = new Map<string, Stored>();
  /** Ids of the entries with each `strategyId\nintentKey`, in append order. */
  private readonly byKey = new Map<string, string[]>();
  private readonly sequences = new Map<string, number>();
  /** The unsettled entries (few, however long the run), by id. */
  private readonly open = new Map<string, Stored>();
  /** Undo steps of the writes inside `atomically`, newest last. */
  private readonly undo: Array<() => void> = emptyObjectArray();
  private depth = 0;
  private seq = 0;

  atomically<T>(work: () => T): T {
    const mark = this.undo.length;
    this.depth++;
    try {
      return work();
    } catch (error: unknown) {
      while (this.undo.length > mark) this.undo.pop()?.();
      throw error;
    } finally {
      this.depth--;
      if (this.depth === 0) this.undo.length = 0;
    }
  }

  append(entry: NewJournalEntry): void {
    const { id, strategyId, intentKey, command, time } = entry;
    if (this.entries.has(id)) throw new InvariantError('JOURNAL_DUPLICATE', `journal entry ${id} exists`);
    const stored: Stored = {
      seq: ++this.seq,
      entry: { id, strategyId, ...(intentKey === undefined ? {} : { intentKey }), symbol: command.symbol, command, state: entry.state ?? 'pending', createdAt: time, updatedAt: time },
    };
    this.entries.set(id, stored);
    this.open.set(id, stored);
    if (intentKey !== undefined) this.keyList(strategyId, intentKey).push(id);
    this.onUndo(() => {
      this.entries.delete(id);
      this.open.delete(id);
      if (intentKey !== undefined) this.unlistKey(stored.entry);
    });
  }

  get(id: string): JournalEntry | undefined {
    return this.entries.get(id)?.entry;
  }

  /** The newest entry with this key (a key may be reused once its entry is settled). */
  findByKey(strategyId: string, intentKey: string): JournalEntry | undefined {
    const ids = this.byKey.get(keyOf(strategyId, intentKey));
    const id = ids?.at(-1);
    return id === undefined ? undefined : this.entries.get(id)?.entry;
  }

  findForAdmission(id: string, strategyId: string, intentKey: string | undefined): JournalEntry | undefined {
    return this.get(id) ?? (intentKey === undefined ? undefined : this.findByKey(strategyId, intentKey));
  }

  /** Absent `exchangeOrderId` or `detail` keep their stored values. Throws on an unknown id. */
  update(id: string, change: { state: JournalState; time: number; exchangeOrderId?: string; detail?: string }): void {
    const stored = this.entries.get(id);
    if (stored === undefined) throw new InvariantError('JOURNAL_UNKNOWN_ENTRY', `no journal entry ${id}`);
    const before = stored.entry;
    const exchangeOrderId = change.exchangeOrderId ?? before.exchangeOrderId;
    const detail = change.detail ?? before.detail;
    stored.entry = {
      id: before.id,
      strategyId: before.strategyId,
      ...(before.intentKey === undefined ? {} : { intentKey: before.intentKey }),
      symbol: before.symbol,
      command: before.command,
      state: change.state,
      ...(exchangeOrderId === undefined ? {} : { exchangeOrderId }),
      ...(detail === undefined ? {} : { detail }),
      createdAt: before.createdAt,
      updatedAt: change.time,
    };
    this.track(stored);
    this.onUndo(() => {
      stored.entry = before;
      this.track(stored);
    });
  }

  unsettled(): readonly JournalEntry[] {
    return [...this.open.values()].sort((a, b) => a.seq - b.seq).map((s) => s.entry);
  }

  nextSequence(strategyId: string): number {
    const before = this.sequences.get(strategyId);
    const value = (before ?? 0) + 1;
    this.sequences.set(strategyId, value);
    this.onUndo(() => {
      if (before === undefined) this.sequences.delete(strategyId);
      else this.sequences.set(strategyId, before);
    });
    return value;
  }

  reserveSequence(strategyId: string, used: number): void {
    const before = this.sequences.get(strategyId);
    if (before !== undefined && before >= used) return;
    this.sequences.set(strategyId, used);
    this.onUndo(() => {
      if (before === undefined) this.sequences.delete(strategyId);
      else this.sequences.set(strategyId, before);
    });
  }

  purgeSettled(before: number): number {
    const gone: Stored[] = [];
    for (const stored of this.entries.values()) {
      const { entry } = stored;
      if (!UNSETTLED.has(entry.state) && entry.updatedAt < before) gone.push(stored);
    }
    for (const { entry } of gone) {
      this.entries.delete(entry.id);
      if (entry.intentKey !== undefined) this.unlistKey(entry);
    }
    if (gone.length > 0) {
      this.onUndo(() => {
        for (const stored of gone) this.restore(stored);
      });
    }
    return gone.length;
  }

  /** Keeps `open` in step with the entry's state. */
  private track(stored: Stored): void {
    if (UNSETTLED.has(stored.entry.state)) this.open.set(stored.entry.id, stored);
    else this.open.delete(stored.entry.id);
  }

  private onUndo(step: () => void): void {
    if (this.depth > 0) this.undo.push(step);
  }

  private keyList(strategyId: string, intentKey: string): string[] {
    const key = keyOf(strategyId, intentKey);
    let ids = this.byKey.get(key);
    if (ids === undefined) {
      ids = [];
      this.byKey.set(key, ids);
    }
    return ids;
  }

  private unlistKey(entry: JournalEntry): void {
    if (entry.intentKey === undefined) return;
    const key = keyOf(entry.strategyId, entry.intentKey);
    const ids = this.byKey.get(key);
    if (ids === undefined) return;
    const at = ids.indexOf(entry.id);
    if (at >= 0) ids.splice(at, 1);
    if (ids.length === 0) this.byKey.delete(key);
  }

  /** Puts a purged entry back at its place in append order (undo of a purge). */
  private restore(stored: Stored): void {
    const all = [...this.entries.values(), stored].sort((a, b) => a.seq - b.seq);
    this.entries.clear();
    for (const s of all) this.entries.set(s.entry.id, s);
    const { entry } = stored;
    if (entry.intentKey === undefined) return;
    const ids = this.keyList(entry.strategyId, entry.intentKey);
    ids.push(entry.id);
    ids.sort((a, b) => (this.entries.get(a)?.seq ?? 0) - (this.entries.get(b)?.seq ?? 0));
  }
}

function keyOf(strategyId: string, intentKey: string): string {
  return `${strategyId}\n${intentKey}`;
}
