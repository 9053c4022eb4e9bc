import type { Database, Statement } from 'better-sqlite3';
import { InvariantError } from '../core/errors.js';
import type { KeyValueStore } from '../model/journal.js';

/** The statements all strategies' stores share (prepared once per database). */
export class KvStatements {
  readonly read: Statement<[string, string], { value: string }>;
  readonly write: Statement<[string, string, string]>;
  readonly remove: Statement<[string, string]>;
  readonly list: Statement<[string], { key: string }>;

  constructor(
    db: Database,
    /** Called after each write (autocommit): the store's group commit fsyncs it soon after. */
    readonly committed: () => void = () => undefined,
  ) {
    this.read = db.prepare('SELECT value FROM strategy_kv WHERE strategy_id = ? AND key = ?');
    this.write = db.prepare('INSERT INTO strategy_kv (strategy_id, key, value) VALUES (?, ?, ?) ON CONFLICT (strategy_id, key) DO UPDATE SET value = excluded.value');
    this.remove = db.prepare('DELETE FROM strategy_kv WHERE strategy_id = ? AND key = ?');
    this.list = db.prepare('SELECT key FROM strategy_kv WHERE strategy_id = ? ORDER BY key');
  }
}

/**
 * One strategy's key-value store. Values round-trip through JSON.stringify/parse: a Decimal comes
 * back as its text (decimal.js `toJSON`), a Date as ISO text; a value JSON cannot hold (undefined, a
 * function) is an InvariantError. A missing key reads as undefined.
 */
export class SqliteKeyValueStore implements KeyValueStore {
  constructor(
    private readonly statements: KvStatements,
    private readonly strategyId: string,
  ) {}

  get(key: string): unknown {
    const row = this.statements.read.get(this.strategyId, key);
    if (row === undefined) return undefined;
    const value: unknown = JSON.parse(row.value);
    return value;
  }

  set(key: string, value: unknown): void {
    const text: string | undefined = JSON.stringify(value);
    if (text === undefined) throw new InvariantError('KV_NOT_JSON', `value of ${this.strategyId}/${key} is not JSON`);
    this.statements.write.run(this.strategyId, key, text);
    this.statements.committed();
  }

  delete(key: string): void {
    this.statements.remove.run(this.strategyId, key);
    this.statements.committed();
  }

  keys(): readonly string[] {
    return this.statements.list.all(this.strategyId).map((row) => row.key);
  }
}
