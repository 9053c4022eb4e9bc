/**
 * The local mirror of the product/user catalog (document 002) that catalog sync writes through.
 * A port: the store implements it in SQLite; the catalog layer depends only on this interface.
 */

export type CatalogEntity = 'product' | 'user';

/** Plain JSON: what a mirrored record holds (decimals as text). Undefined members are dropped. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue | undefined };

export interface MirrorRow {
  readonly id: string;
  readonly data: JsonValue;
}

export interface MirrorRecord extends MirrorRow {
  /** Time of the sync that first mirrored the record. */
  readonly firstSeen: number;
  /** Time of the sync that last created or changed it. */
  readonly lastChanged: number;
}

/** Ids that changed, each list sorted. */
export interface MirrorDiff {
  readonly created: readonly string[];
  readonly updated: readonly string[];
  readonly deleted: readonly string[];
}

export type MirrorSnapshot = Readonly<Record<CatalogEntity, readonly MirrorRow[]>>;

export interface CatalogMirror {
  /**
   * Makes the entity's mirrored set equal `rows`: ids not mirrored yet are created, ids whose data
   * differs (compared as canonical JSON) are updated, mirrored ids absent from `rows` are deleted.
   * One transaction. Throws InvariantError on a duplicate id in `rows`.
   */
  diffAndApply(entity: CatalogEntity, rows: readonly MirrorRow[], time: number): MirrorDiff;
  /** diffAndApply for every entity in one transaction (all or nothing), and records `time` as the last sync. */
  applySnapshot(snapshot: MirrorSnapshot, time: number): Readonly<Record<CatalogEntity, MirrorDiff>>;
  count(entity: CatalogEntity): number;
  get(entity: CatalogEntity, id: string): MirrorRecord | undefined;
  /** Mirrored ids, sorted. */
  ids(entity: CatalogEntity): readonly string[];
  /** Time of the last applySnapshot, if any. */
  lastSyncedAt(): number | undefined;
}
