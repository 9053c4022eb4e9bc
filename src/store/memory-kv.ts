import { InvariantError } from '../core/errors.js';
import type { KeyValueStore } from '../model/journal.js';

/**
 * One strategy's key-value store in memory, for backtests and sweeps: the SqliteKeyValueStore's
 * contract (the same tests run against both). Values are kept as their JSON text, so what is read back
 * is what the SQLite store would answer (a copy; a Decimal as its text) and a value JSON cannot hold is
 * refused the same way.
 */
export class MemoryKeyValueStore implements KeyValueStore {
  private readonly values = new Map<string, string>();

  constructor(private readonly strategyId: string) {}

  get(key: string): unknown {
    const text = this.values.get(key);
    if (text === undefined) return undefined;
    const value: unknown = JSON.parse(text);
    return value;
  }

  set(key: string, value: unknown): void {
    const text: string | undefined = JSON.stringify(value);
    if (text === undefined) throw new InvariantError('KV_NOT_JSON', `value of ${this.strategyId}/${key} is not JSON`);
    this.values.set(key, text);
  }

  delete(key: string): void {
    this.values.delete(key);
  }

  /** In SQLite's order of text (its bytes in UTF-8). */
  keys(): readonly string[] {
    return [...this.values.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }
}

/** The strategies' key-value stores of one run, in memory: `keyValue(id)` answers the same store for an id. */
export class MemoryKeyValueStores {
  private readonly stores = new Map<string, MemoryKeyValueStore>();

  keyValue(strategyId: string): KeyValueStore {
    let store = this.stores.get(strategyId);
    if (store === undefined) {
      store = new MemoryKeyValueStore(strategyId);
      this.stores.set(strategyId, store);
    }
    return store;
  }
}
