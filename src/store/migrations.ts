import type { Database } from 'better-sqlite3';

/**
 * The schema, one migration per version: migration i brings `user_version` from i to i + 1. Append
 * only; never edit a migration that has shipped.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE journal (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    strategy_id TEXT NOT NULL,
    intent_key TEXT,
    symbol TEXT NOT NULL,
    command TEXT NOT NULL,
    state TEXT NOT NULL,
    exchange_order_id TEXT,
    detail TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX journal_by_key ON journal (strategy_id, intent_key) WHERE intent_key IS NOT NULL;
  CREATE INDEX journal_by_state ON journal (state, updated_at);
  CREATE TABLE journal_sequence (
    strategy_id TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE strategy_kv (
    strategy_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (strategy_id, key)
  ) WITHOUT ROWID;
  CREATE TABLE catalog_mirror (
    entity TEXT NOT NULL,
    id TEXT NOT NULL,
    data TEXT NOT NULL,
    first_seen INTEGER NOT NULL,
    last_changed INTEGER NOT NULL,
    PRIMARY KEY (entity, id)
  ) WITHOUT ROWID;
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
];

/** Schema version of this build. */
export const SCHEMA_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Database): number {
  const version: unknown = db.pragma('user_version', { simple: true });
  return typeof version === 'number' ? version : 0;
}

/** Applies the pending migrations, each in its own transaction together with its version bump. */
export function migrate(db: Database): void {
  for (let version = schemaVersion(db); version < MIGRATIONS.length; version += 1) {
    const sql = MIGRATIONS[version] ?? '';
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
