import type { Database, Statement } from 'better-sqlite3';
import { InvariantError } from '../core/errors.js';
import type { CatalogEntity, CatalogMirror, JsonValue, MirrorDiff, MirrorRecord, MirrorRow, MirrorSnapshot } from '../model/catalog-mirror.js';
import { canonicalJson } from './canonical-json.js';

interface MirrorTableRow {
  readonly id: string;
  readonly data: string;
  readonly first_seen: number;
  readonly last_changed: number;
}

const LAST_SYNC = 'catalog.lastSyncedAt';

/** The catalog mirror in SQLite: one row per record, its data as canonical JSON text (the comparison key). */
export class SqliteCatalogMirror implements CatalogMirror {
  private readonly all: Statement<[string], { id: string; data: string }>;
  private readonly one: Statement<[string, string], MirrorTableRow>;
  private readonly insert: Statement<[string, string, string, number, number]>;
  private readonly change: Statement<[string, number, string, string]>;
  private readonly remove: Statement<[string, string]>;
  private readonly counter: Statement<[string], { n: number }>;
  private readonly idList: Statement<[string], { id: string }>;
  private readonly readMeta: Statement<[string], { value: string }>;
  private readonly writeMeta: Statement<[string, string]>;

  constructor(private readonly db: Database) {
    this.all = db.prepare('SELECT id, data FROM catalog_mirror WHERE entity = ?');
    this.one = db.prepare('SELECT id, data, first_seen, last_changed FROM catalog_mirror WHERE entity = ? AND id = ?');
    this.insert = db.prepare('INSERT INTO catalog_mirror (entity, id, data, first_seen, last_changed) VALUES (?, ?, ?, ?, ?)');
    this.change = db.prepare('UPDATE catalog_mirror SET data = ?, last_changed = ? WHERE entity = ? AND id = ?');
    this.remove = db.prepare('DELETE FROM catalog_mirror WHERE entity = ? AND id = ?');
    this.counter = db.prepare('SELECT COUNT(*) AS n FROM catalog_mirror WHERE entity = ?');
    this.idList = db.prepare('SELECT id FROM catalog_mirror WHERE entity = ? ORDER BY id');
    this.readMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
    this.writeMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  }

  diffAndApply(entity: CatalogEntity, rows: readonly MirrorRow[], time: number): MirrorDiff {
    return this.db.transaction(() => this.apply(entity, rows, time))();
  }

  applySnapshot(snapshot: MirrorSnapshot, time: number): Readonly<Record<CatalogEntity, MirrorDiff>> {
    return this.db.transaction(() => {
      const product = this.apply('product', snapshot.product, time);
      const user = this.apply('user', snapshot.user, time);
      this.writeMeta.run(LAST_SYNC, String(time));
      return { product, user };
    })();
  }

  count(entity: CatalogEntity): number {
    return this.counter.get(entity)?.n ?? 0;
  }

  get(entity: CatalogEntity, id: string): MirrorRecord | undefined {
    const row = this.one.get(entity, id);
    if (row === undefined) return undefined;
    return { id: row.id, data: parseJson(row.data), firstSeen: row.first_seen, lastChanged: row.last_changed };
  }

  ids(entity: CatalogEntity): readonly string[] {
    return this.idList.all(entity).map((row) => row.id);
  }

  lastSyncedAt(): number | undefined {
    const row = this.readMeta.get(LAST_SYNC);
    return row === undefined ? undefined : Number(row.value);
  }

  /** Runs inside the caller's transaction. */
  private apply(entity: CatalogEntity, rows: readonly MirrorRow[], time: number): MirrorDiff {
    const current = new Map(this.all.all(entity).map((row) => [row.id, row.data]));
    const seen = new Set<string>();
    const created: string[] = [];
    const updated: string[] = [];
    for (const { id, data } of rows) {
      if (seen.has(id)) throw new InvariantError('MIRROR_DUPLICATE_ID', `${entity} ${id} appears twice in one snapshot`);
      seen.add(id);
      const text = canonicalJson(data);
      const before = current.get(id);
      if (before === undefined) {
        this.insert.run(entity, id, text, time, time);
        created.push(id);
      } else if (before !== text) {
        this.change.run(text, time, entity, id);
        updated.push(id);
      }
    }
    const deleted = [...current.keys()].filter((id) => !seen.has(id));
    for (const id of deleted) this.remove.run(entity, id);
    return { created: created.sort(), updated: updated.sort(), deleted: deleted.sort() };
  }
}

/** The text was written by canonicalJson, so it parses back to a JsonValue. */
function parseJson(text: string): JsonValue {
  return JSON.parse(text) as JsonValue;
}
