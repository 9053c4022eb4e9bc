import { InvariantError } from '../core/errors.js';
import type { KeyValueStore } from '../model/journal.js';

/** A value one JSON round trip gives back as itself (immutable, so it is answered without a copy): no text made for it. */
type Exact = string | boolean | null | number;

function isExact(value: unknown): value is Exact {
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  return value === null || typeof value === 'string' || typeof value === 'boolean';
}

/** A value kept as its JSON text (read back as a copy). */
interface JsonText {
  readonly text: string;
}

/**
 * One strategy's key-value store in memory, for backtests and sweeps: the SqliteKeyValueStore's
 * contract (the same tests run against both). Values are kept as their JSON text, so what is read back
 * is what the SQLite store would answer (a copy; a Decimal as its text) and a value JSON cannot hold is
 * refused the same way. A string, boolean, null or finite number (a strategy's counter, read and written
 * per order) reads back from JSON as itself, so it is kept as it is: no text made and parsed for it.
 * Both kinds live in one table: an absent key (each run's first reads) answers by the same lookup and a
 * type test, no second lookup that a run's optimized code would meet without feedback.
 */
export class MemoryKeyValueStore implements KeyValueStore {
  private readonly held = new Map<string, Exact | JsonText>();

  constructor(private readonly strategyId: string) {}

  get(key: string): unknown {
    const held = this.held.get(key);
    if (typeof held !== 'object' || held === null) return held;
    const value: unknown = JSON.parse(held.text);
    return value;
  }

  set(key: string, value: unknown): void {
    if (isExact(value)) {
      this.held.set(key, value);
      return;
    }
    const text: string | undefined = JSON.stringify(value);
    if (text === undefined) throw new InvariantError('KV_NOT_JSON', `value of ${this.strategyId}/${key} is not JSON`);
    this.held.set(key, { text });
  }

  delete(key: string): void {
    this.held.delete(key);
  }

  /** In SQLite's order of text (its bytes in UTF-8). */
  keys(): readonly string[] {
    return [...this.held.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
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
