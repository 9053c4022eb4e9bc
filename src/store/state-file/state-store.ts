import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';
import { InvariantError } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { CatalogMirror } from '../../model/catalog-mirror.js';
import type { KeyValueStore, OrderJournal } from '../../model/journal.js';
import { migrate, SCHEMA_VERSION, schemaVersion } from '../migrations.js';
import { SqliteCatalogMirror } from '../sqlite-catalog-mirror.js';
import { GroupCommit } from '../group-commit.js';
import { SqliteJournal } from '../sqlite-journal.js';
import { WalSync } from '../wal-sync.js';
import { KvStatements, SqliteKeyValueStore } from '../sqlite-kv.js';
import { ensurePrivateDir, makeFilePrivate } from '../private-files.js';
import { quickCheckProblem, stateFileFound, unwritableDirectory } from './checks.js';
import { createStateFile, orphanedLog } from './create.js';
import { DeferredCheckpoints } from './deferred-checkpoints.js';
import { randomNamespace, StateIdentity } from './identity.js';

export const STATE_FILE = 'stratd.db';

/**
 * `STATE_CORRUPT`: the file exists but is empty, not a database, or fails SQLite's quick_check: never
 * a fresh start (a new state would reuse nothing, but would forget what the journal knew).
 * `STATE_READ_ONLY`: the directory cannot be written.
 */
export type StateStoreErrorCode = 'STATE_LOCKED' | 'STATE_SCHEMA_NEWER' | 'STATE_OPEN_FAILED' | 'STATE_CORRUPT' | 'STATE_READ_ONLY';

/** Why the state file could not be opened (an expected failure at start-up: reported, not thrown). */
export class StateStoreError extends Error {
  override readonly name = 'StateStoreError';
  constructor(
    readonly code: StateStoreErrorCode,
    readonly path: string,
    message: string,
  ) {
    super(`${code}: ${path}: ${message}`);
  }
}

export interface StateStoreInfo {
  readonly path: string;
  /** "wal" for a file, "memory" in memory. */
  readonly journalMode: string;
  /** "FULL" for a file. */
  readonly synchronous: string;
  readonly lockingMode: string;
  /**
   * When commits are fsynced: `commit` (each one, before it returns: synchronous=FULL), `group` (one
   * fsync on a worker thread for the commits of each turn of the event loop, right after them), or
   * `checkpoint` (only when SQLite checkpoints the log: synchronous=NORMAL).
   */
  readonly fsync: 'commit' | 'group' | 'checkpoint';
  /** The page cache's bound in KiB (SQLite's negative cache_size). */
  readonly pageCacheKiB: number;
  readonly schemaVersion: number;
}

/**
 * SQLite's page cache for the state file, in KiB. better-sqlite3 builds SQLite with 16 MiB, which a
 * daemon fills only as the journal grows over days (a soak saw the process grow ~0.6 MiB an hour):
 * the pages the daemon reads (open entries, recent ids, the strategies' keys) fit in far less.
 */
const PAGE_CACHE_KIB = 2048;

const SYNCHRONOUS: Readonly<Record<string, string>> = { '0': 'OFF', '1': 'NORMAL', '2': 'FULL', '3': 'EXTRA' };

export interface StateStoreOptions {
  /** How long to wait for a lock another process holds before giving up; default 1000 ms. */
  readonly lockTimeoutMs?: number;
  /**
   * The daemon's `journal.durability`. `disk`: commits reach the operating system when the call
   * returns, and one fsync for the commits of each turn of the event loop runs on a worker thread
   * right after them (group-commit.ts): on disk within about a millisecond of the send, never in
   * its latency. `os`: commits reach the operating system only (they survive the process crashing,
   * not the machine); the log is fsynced at checkpoints.
   * Without it, `synchronous` decides (tools and tests).
   */
  readonly durability?: 'disk' | 'os';
  /**
   * Without `durability`: `FULL` (default): every commit is fsynced before the call returns.
   * `NORMAL`: as `durability: os`.
   */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /** With a `durability`: where a group's fsync (`disk`) and the log's checkpoints are started from (default `setImmediate`). */
  readonly defer?: (work: () => void) => void;
  /**
   * With `durability: disk`: a group's fsync failed (an I/O error: the disk can no longer be
   * trusted with the journal). Default: thrown from the callback, which ends the process (crash
   * only: the supervisor restarts it and the restart reconciles with the exchange by client id).
   */
  readonly onSyncFailure?: (error: Error) => void;
  /** Draws the namespace of a new state (tests); default random. */
  readonly newNamespace?: () => string;
}

/**
 * The daemon's state: one SQLite file holding the order journal, the strategies' key-value stores
 * and the catalog mirror.
 *
 * Durability (StateStoreOptions.durability): WAL; the executor journals before it sends, so a
 * commit must be in the operating system before the request goes out; its fsync (about 0.7-1.4 ms
 * on ext4 in a VM, against about 40 µs for the commit itself) is group-committed beside the send
 * under `disk`, left to checkpoints under `os`, and paid in each commit with `synchronous: FULL`
 * (the default of tools and tests that open a state). `locking_mode=EXCLUSIVE`
 * keeps a second daemon off the same file: its open fails with STATE_LOCKED instead of both
 * journaling orders into one file.
 */
export class StateStore {
  private journalInstance: OrderJournal | undefined;
  private mirrorInstance: CatalogMirror | undefined;
  private kvStatements: KvStatements | undefined;
  private readonly kvStores = new Map<string, KeyValueStore>();
  private countStatements: { readonly open: Statement<[], { n: number }>; readonly all: Statement<[], { n: number }> } | undefined;

  /** Namespace of its client order ids and the account it belongs to (state-file/identity.ts). */
  readonly identity: StateIdentity;

  private constructor(
    private readonly db: Db,
    /** The file, or ':memory:'. */
    readonly path: string,
    /** The file did not exist before this open. */
    readonly created: boolean,
    newNamespace: () => string,
    /** With `durability: disk`: the group commit every write of the store reports to. */
    private readonly group?: { readonly commit: GroupCommit; readonly wal: WalSync },
    /** With a `durability` (the daemon): the log's checkpoints, after the turn that made the commits. */
    private readonly checkpoints?: DeferredCheckpoints,
  ) {
    this.identity = new StateIdentity(db, newNamespace);
  }

  /** Every commit of the store: counted by the group commit (`disk`), which fsyncs it soon after, and toward the next checkpoint. */
  private readonly committed = (): void => {
    this.group?.commit.committed();
    this.checkpoints?.committed();
  };

  /** The group commit (`durability: disk`), for crash points and tests; undefined otherwise. */
  get groupCommit(): GroupCommit | undefined {
    return this.group?.commit;
  }

  /**
   * Opens (creating the directory and the file if needed) `<dir>/stratd.db`, checks and migrates it.
   * Only a missing file is a fresh start (created whole: state-file/create.ts): an empty or unreadable
   * one is STATE_CORRUPT.
   */
  static open(dir: string, options: StateStoreOptions = {}): Result<StateStore, StateStoreError> {
    const path = join(dir, STATE_FILE);
    let db: Db | undefined;
    try {
      // 0700 and 0600 whatever the umask: the journal and the strategies' state are nobody else's.
      ensurePrivateDir(dir);
      const found = stateFileFound(path);
      if (found === 'empty') return err(new StateStoreError('STATE_CORRUPT', path, `the state file is empty (0 bytes), so its order journal is lost; ${CORRUPT_ADVICE}`));
      const unwritable = unwritableDirectory(dir);
      if (unwritable !== undefined) return err(new StateStoreError(unwritable.readOnly ? 'STATE_READ_ONLY' : 'STATE_OPEN_FAILED', path, unwritable.message));
      const newNamespace = options.newNamespace ?? randomNamespace;
      let created = false;
      if (found === 'absent') {
        const log = orphanedLog(path);
        if (log !== undefined) return err(new StateStoreError('STATE_CORRUPT', path, `the state file is missing but its write-ahead log ${log} is there: the state was deleted in part; ${CORRUPT_ADVICE}`));
        created = createStateFile(path, newNamespace);
      }
      makeFilePrivate(path);
      db = new Database(path, { timeout: options.lockTimeoutMs ?? 1000 });
      db.pragma('locking_mode = EXCLUSIVE');
      db.pragma('journal_mode = WAL');
      const normal = options.durability !== undefined || options.synchronous === 'NORMAL';
      db.pragma(normal ? 'synchronous = NORMAL' : 'synchronous = FULL');
      db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
      const problem = quickCheckProblem(db);
      if (problem !== undefined) throw new StateCorrupt(`SQLite's quick_check failed (${problem}); ${CORRUPT_ADVICE}`);
      if (schemaVersion(db) === 0) throw new StateCorrupt(`the file holds no stratd state (schema version 0); ${CORRUPT_ADVICE}`);
      const checkpoints = options.durability === undefined ? undefined : new DeferredCheckpoints(db, options.defer ?? setImmediateWork);
      return StateStore.prepare(db, path, created, newNamespace, options.durability === 'disk' ? groupCommitOf(`${path}-wal`, options) : undefined, checkpoints);
    } catch (error: unknown) {
      db?.close();
      return err(openError(path, error));
    }
  }

  /** A store that lives and dies with the process (backtests, tests). */
  static inMemory(): StateStore {
    const opened = StateStore.prepare(new Database(':memory:'), ':memory:', true, randomNamespace);
    if (!opened.ok) throw opened.error;
    return opened.value;
  }

  private static prepare(
    db: Db,
    path: string,
    created: boolean,
    newNamespace: () => string,
    group?: { readonly commit: GroupCommit; readonly wal: WalSync },
    checkpoints?: DeferredCheckpoints,
  ): Result<StateStore, StateStoreError> {
    const version = schemaVersion(db);
    if (version > SCHEMA_VERSION) {
      db.close();
      return err(new StateStoreError('STATE_SCHEMA_NEWER', path, `schema version ${version} is newer than this build's ${SCHEMA_VERSION}`));
    }
    migrate(db);
    return ok(new StateStore(db, path, created, newNamespace, group, checkpoints));
  }

  /** The settings in force, for the start-up log and tests. */
  describe(): StateStoreInfo {
    const text = (name: string): string => String(this.db.pragma(name, { simple: true }));
    return {
      path: this.path,
      journalMode: text('journal_mode'),
      synchronous: SYNCHRONOUS[text('synchronous')] ?? text('synchronous'),
      lockingMode: text('locking_mode'),
      fsync: this.group !== undefined ? 'group' : text('synchronous') === '1' ? 'checkpoint' : 'commit',
      pageCacheKiB: -Number(text('cache_size')),
      schemaVersion: schemaVersion(this.db),
    };
  }

  journal(): OrderJournal {
    this.journalInstance ??= new SqliteJournal(this.db, this.committed);
    return this.journalInstance;
  }

  /** Journal entries by life stage (metrics): open ones are also in the executor's memory; settled ones stay on disk until purged. */
  journalCounts(): { readonly open: number; readonly settled: number } {
    this.countStatements ??= {
      open: this.db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM journal WHERE state IN ('pending', 'sent', 'unknown', 'accepted')`),
      all: this.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM journal'),
    };
    const open = this.countStatements.open.get()?.n ?? 0;
    return { open, settled: (this.countStatements.all.get()?.n ?? 0) - open };
  }

  keyValue(strategyId: string): KeyValueStore {
    let store = this.kvStores.get(strategyId);
    if (store === undefined) {
      this.kvStatements ??= new KvStatements(this.db, this.committed);
      store = new SqliteKeyValueStore(this.kvStatements, strategyId);
      this.kvStores.set(strategyId, store);
    }
    return store;
  }

  catalogMirror(): CatalogMirror {
    this.mirrorInstance ??= new SqliteCatalogMirror(this.db);
    return this.mirrorInstance;
  }

  /** Checkpoints the WAL into the main file and closes; the accessors' objects are unusable afterwards. */
  close(): void {
    if (!this.db.open) return;
    // The checkpoint fsyncs the log and the file: what the group commit had not synced is on disk after it.
    if (this.path !== ':memory:') this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
    const group = this.group;
    group?.commit.close(() => group.wal.close());
  }
}

function groupCommitOf(walPath: string, options: StateStoreOptions): { readonly commit: GroupCommit; readonly wal: WalSync } {
  const wal = new WalSync(walPath);
  const commit = new GroupCommit({
    sync: (done) => wal.sync(done),
    defer: options.defer ?? setImmediateWork,
    onFailure:
      options.onSyncFailure ??
      ((error) => {
        throw new InvariantError('JOURNAL_FSYNC_FAILED', `fsync of the order journal's log ${walPath} failed (${error.message}): its commits may not be on disk`);
      }),
  });
  return { commit, wal };
}

function setImmediateWork(work: () => void): void {
  setImmediate(work);
}

const CORRUPT_ADVICE =
  'restore it from a backup, or move it away to start a new state (a new state first reads the account\'s recent orders so that it repeats none of their client order ids)';

/** A check at open found the file unusable. */
class StateCorrupt extends Error {}

function openError(path: string, error: unknown): StateStoreError {
  const message = errorText(error);
  if (error instanceof StateCorrupt) return new StateStoreError('STATE_CORRUPT', path, message);
  if (isSqliteCode(error, 'SQLITE_BUSY')) return new StateStoreError('STATE_LOCKED', path, `another process holds the state file (${message})`);
  if (isSqliteCode(error, 'SQLITE_NOTADB') || isSqliteCode(error, 'SQLITE_CORRUPT')) {
    return new StateStoreError('STATE_CORRUPT', path, `the file is not a readable SQLite database (${message}); ${CORRUPT_ADVICE}`);
  }
  if (sqliteCodeStarts(error, 'SQLITE_READONLY')) return new StateStoreError('STATE_READ_ONLY', path, `the state file or its directory is read-only (${message})`);
  return new StateStoreError('STATE_OPEN_FAILED', path, message);
}

function sqliteCodeStarts(error: unknown, prefix: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && error.code.startsWith(prefix);
}

/*
 * Duck-typed, not `instanceof`: the native addon keeps the SqliteError class of the first module
 * instance (and realm) that loaded it, so under a test runner's fresh module registry neither
 * `instanceof SqliteError` nor `instanceof Error` holds.
 */
function isSqliteCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

function errorText(error: unknown): string {
  return typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' ? error.message : String(error);
}
