import { InvariantError } from '../core/errors.js';
import type { KeyValueStore } from '../model/journal.js';

/**
 * An in-memory key-value store for state written after every change and read back only by a restart,
 * which a backtest never has (the kernel's ledgers: their positions and the open run of booked trade
 * ids after every fill, each full run of ids once). The last value of each key is kept as handed
 * over, and becomes its JSON copy only when read: the writer must hand over a fresh value each time and never change it afterwards (the
 * ledgers' codec builds a new one per write). Reads answer what MemoryKeyValueStore would: a copy, a
 * Decimal as its text. A value JSON cannot hold at all is refused at once; one that holds something
 * JSON drops deeper inside (a function in a field) loses it only when read, as JSON.stringify does.
 */
export class UnreadStateStore implements KeyValueStore {
  private readonly values = new Map<string, unknown>();

  constructor(private readonly namespace: string) {}

  get(key: string): unknown {
    if (!this.values.has(key)) return undefined;
    const text = JSON.stringify(this.values.get(key));
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  }

  set(key: string, value: unknown): void {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') throw new InvariantError('KV_NOT_JSON', `value of ${this.namespace}/${key} is not JSON`);
    this.values.set(key, value);
  }

  delete(key: string): void {
    this.values.delete(key);
  }

  /** In SQLite's order of text (its bytes in UTF-8). */
  keys(): readonly string[] {
    return [...this.values.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }
}
