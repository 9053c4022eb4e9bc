import { InvariantError } from '../core/errors.js';
import type { JournalEntry, JournalState, NewJournalEntry, OrderJournal } from '../model/journal.js';
import { emptyObjectArray } from '../core/empty-arrays.js';
import type { ExchangeCommand } from '../model/commands.js';

const UNSETTLED: ReadonlySet<JournalState> = new Set<JournalState>(['pending', 'sent', 'unknown', 'accepted']);

/**
 * One entry's fields, changed in place by `update` (no new object per phase change); the entry handed
 * out is made from them at the first read after a change and kept until the next.
 */
interface Stored {
  /** Append order (SQLite's `seq`). */
  readonly seq: number;
  readonly id: string;
  readonly strategyId: string;
  readonly intentKey: string | undefined;
  readonly command: ExchangeCommand;
  readonly createdAt: number;
  state: JournalState;
  exchangeOrderId: string | undefined;
  detail: string | undefined;
  updatedAt: number;
  view: JournalEntry | undefined;
}

/** The changing fields of a stored entry, as an undo step puts them back. */
type Changing = Pick<Stored, 'state' | 'exchangeOrderId' | 'detail' | 'updatedAt' | 'view'>;

/**
 * The order journal in memory, for backtests and sweeps: the SqliteJournal's contract (the same tests
 * run against both) without a database. Nothing outlives the process, which is all a backtest needs.
 * Commands are kept as given (they are immutable values); `atomically` undoes the work's writes when it
 * throws, a nested call only its own.
 */
export class MemoryJournal implements OrderJournal {
  private readonly entries = new Map<string, Stored>();
  /** The entries with an intent key, by strategy and key. */
  private readonly byKey = new KeyIndex();
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
      id,
      strategyId,
      intentKey,
      command,
      createdAt: time,
      state: entry.state ?? 'pending',
      exchangeOrderId: undefined,
      detail: undefined,
      updatedAt: time,
      view: undefined,
    };
    this.entries.set(id, stored);
    this.open.set(id, stored);
    this.byKey.add(stored);
    if (this.depth > 0) {
      this.undo.push(() => {
        this.entries.delete(id);
        this.open.delete(id);
        this.byKey.remove(stored);
      });
    }
  }

  get(id: string): JournalEntry | undefined {
    const stored = this.entries.get(id);
    return stored === undefined ? undefined : entryOf(stored);
  }

  /** The newest entry with this key (a key may be reused once its entry is settled). */
  findByKey(strategyId: string, intentKey: string): JournalEntry | undefined {
    const stored = this.byKey.newest(strategyId, intentKey);
    return stored === undefined ? undefined : entryOf(stored);
  }

  findForAdmission(id: string, strategyId: string, intentKey: string | undefined): JournalEntry | undefined {
    return this.get(id) ?? (intentKey === undefined ? undefined : this.findByKey(strategyId, intentKey));
  }

  /** Absent `exchangeOrderId` or `detail` keep their stored values. Throws on an unknown id. */
  update(id: string, change: { state: JournalState; time: number; exchangeOrderId?: string; detail?: string }): void {
    const stored = this.entries.get(id);
    if (stored === undefined) throw new InvariantError('JOURNAL_UNKNOWN_ENTRY', `no journal entry ${id}`);
    if (this.depth > 0) {
      const before: Changing = { state: stored.state, exchangeOrderId: stored.exchangeOrderId, detail: stored.detail, updatedAt: stored.updatedAt, view: stored.view };
      this.undo.push(() => {
        stored.state = before.state;
        stored.exchangeOrderId = before.exchangeOrderId;
        stored.detail = before.detail;
        stored.updatedAt = before.updatedAt;
        stored.view = before.view;
        this.track(stored);
      });
    }
    stored.state = change.state;
    if (change.exchangeOrderId !== undefined) stored.exchangeOrderId = change.exchangeOrderId;
    if (change.detail !== undefined) stored.detail = change.detail;
    stored.updatedAt = change.time;
    stored.view = undefined;
    this.track(stored);
  }

  unsettled(): readonly JournalEntry[] {
    return [...this.open.values()].sort((a, b) => a.seq - b.seq).map(entryOf);
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
      if (!UNSETTLED.has(stored.state) && stored.updatedAt < before) gone.push(stored);
    }
    for (const stored of gone) {
      this.entries.delete(stored.id);
      this.byKey.remove(stored);
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
    if (UNSETTLED.has(stored.state)) this.open.set(stored.id, stored);
    else this.open.delete(stored.id);
  }

  /** An undo step inside a transaction (append and update test `depth` themselves: no closure made outside one). */
  private onUndo(step: () => void): void {
    if (this.depth > 0) this.undo.push(step);
  }

  /** Puts a purged entry back at its place in append order (undo of a purge). */
  private restore(stored: Stored): void {
    const all = [...this.entries.values(), stored].sort((a, b) => a.seq - b.seq);
    this.entries.clear();
    for (const s of all) this.entries.set(s.id, s);
    this.byKey.add(stored);
  }
}

/**
 * The entries with an intent key, by strategy and key (no key text made per lookup), in append order: an
 * entry alone while its key is used once (every key of a run, as strategies draw them), a list once reused.
 */
class KeyIndex {
  private readonly byStrategy = new Map<string, Map<string, Stored | Stored[]>>();

  newest(strategyId: string, intentKey: string): Stored | undefined {
    const found = this.byStrategy.get(strategyId)?.get(intentKey);
    return Array.isArray(found) ? found.at(-1) : found;
  }

  /** Lists an entry at its place in append order (a restored one among later ones too). */
  add(stored: Stored): void {
    const { strategyId, intentKey } = stored;
    if (intentKey === undefined) return;
    let keys = this.byStrategy.get(strategyId);
    if (keys === undefined) {
      keys = new Map();
      this.byStrategy.set(strategyId, keys);
    }
    const found = keys.get(intentKey);
    if (found === undefined) {
      keys.set(intentKey, stored);
      return;
    }
    const list = Array.isArray(found) ? found : [found];
    list.push(stored);
    list.sort((a, b) => a.seq - b.seq);
    keys.set(intentKey, list);
  }

  remove(stored: Stored): void {
    const { strategyId, intentKey } = stored;
    if (intentKey === undefined) return;
    const keys = this.byStrategy.get(strategyId);
    const found = keys?.get(intentKey);
    if (keys === undefined || found === undefined) return;
    if (!Array.isArray(found)) {
      if (found === stored) keys.delete(intentKey);
      return;
    }
    const at = found.indexOf(stored);
    if (at >= 0) found.splice(at, 1);
    if (found.length === 0) keys.delete(intentKey);
  }
}

/** The entry as handed out, made at its first read after a change: its optional keys set after the rest (no spreads). */
function entryOf(stored: Stored): JournalEntry {
  if (stored.view !== undefined) return stored.view;
  const { intentKey, exchangeOrderId, detail } = stored;
  const view: { -readonly [K in keyof JournalEntry]: JournalEntry[K] } = {
    id: stored.id,
    strategyId: stored.strategyId,
    symbol: stored.command.symbol,
    command: stored.command,
    state: stored.state,
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
  if (intentKey !== undefined) view.intentKey = intentKey;
  if (exchangeOrderId !== undefined) view.exchangeOrderId = exchangeOrderId;
  if (detail !== undefined) view.detail = detail;
  stored.view = view;
  return view;
}
