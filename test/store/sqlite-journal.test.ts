import Database from 'better-sqlite3';
import { join } from 'node:path';
import { InvariantError } from '../../src/core/errors.js';
import { unwrap } from '../../src/core/result.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { encodeCommand } from '../../src/store/command-codec.js';
import { STATE_FILE, StateStore } from '../../src/store/state-file/state-store.js';
import { describeJournalContract, place, T } from './journal-contract.js';
import { tmpStateDir } from './tmp-state-dir.js';

describeJournalContract('SqliteJournal semantics (in memory)', () => {
  const store = StateStore.inMemory();
  return { journal: store.journal(), close: () => store.close() };
});

describe('StateStore file', () => {
  let tmp: ReturnType<typeof tmpStateDir>;
  beforeEach(() => {
    tmp = tmpStateDir();
  });
  afterEach(() => tmp.remove());

  it('creates the directory and stratd.db in WAL mode with synchronous=FULL at the current schema version', () => {
    const dir = join(tmp.dir, 'nested', 'state');
    const store = unwrap(StateStore.open(dir));
    expect(store.describe()).toEqual({ path: join(dir, STATE_FILE), journalMode: 'wal', synchronous: 'FULL', lockingMode: 'exclusive', fsync: 'commit', pageCacheKiB: 2048, schemaVersion: 2 });
    store.close();
  });

  it('opens with synchronous=NORMAL when asked (commits reach the OS, fsynced at checkpoints)', () => {
    const store = unwrap(StateStore.open(tmp.dir, { synchronous: 'NORMAL' }));
    expect(store.describe()).toMatchObject({ journalMode: 'wal', synchronous: 'NORMAL' });
    store.close();
  });

  it('keeps entries, states and sequences across a reopen', () => {
    const first = unwrap(StateStore.open(tmp.dir));
    const j1 = first.journal();
    expect(j1.nextSequence('grid')).toBe(1);
    expect(j1.nextSequence('grid')).toBe(2);
    j1.append({ id: 'grid-2', strategyId: 'grid', intentKey: 'level-1', command: place('grid-2'), time: T });
    j1.update('grid-2', { state: 'unknown', time: T + 5, detail: 'timeout' });
    j1.append({ id: 'grid-3', strategyId: 'grid', command: place('grid-3'), time: T + 6 });
    j1.update('grid-3', { state: 'done', time: T + 7, exchangeOrderId: '42' });
    first.close();

    const second = unwrap(StateStore.open(tmp.dir));
    const j2 = second.journal();
    expect(j2.nextSequence('grid')).toBe(3);
    expect(j2.unsettled()).toEqual([
      { id: 'grid-2', strategyId: 'grid', intentKey: 'level-1', symbol: 'BTC-SWAP-USDT', command: place('grid-2'), state: 'unknown', detail: 'timeout', createdAt: T, updatedAt: T + 5 },
    ]);
    expect(j2.get('grid-3')).toMatchObject({ state: 'done', exchangeOrderId: '42' });
    expect(j2.findByKey('grid', 'level-1')?.id).toBe('grid-2');
    expect(() => j2.append({ id: 'grid-2', strategyId: 'grid', command: place('grid-2'), time: T + 9 })).toThrow(InvariantError);
    second.close();
  });

  it('a second open of a held state file fails with STATE_LOCKED; it opens once the holder closes', () => {
    const holder = unwrap(StateStore.open(tmp.dir));
    holder.journal().append({ id: 'x', strategyId: 's', command: place('x'), time: T });
    const intruder = StateStore.open(tmp.dir, { lockTimeoutMs: 50 });
    expect(intruder.ok).toBe(false);
    if (!intruder.ok) expect(intruder.error.code).toBe('STATE_LOCKED');
    holder.close();
    const next = unwrap(StateStore.open(tmp.dir));
    expect(next.journal().get('x')?.state).toBe('pending');
    next.close();
  });

  it('opens a state file of schema version 1: entries, their order, keys and sequences kept; commits no longer write sqlite_sequence', () => {
    const path = join(tmp.dir, STATE_FILE);
    const v1 = new Database(path);
    v1.exec(MIGRATIONS[0] ?? '');
    v1.pragma('user_version = 1');
    const row = v1.prepare('INSERT INTO journal (id, strategy_id, intent_key, symbol, command, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    row.run('grid-1', 'grid', 'level-1', 'BTC-SWAP-USDT', encodeCommand(place('grid-1')), 'rejected', T, T);
    row.run('grid-2', 'grid', 'level-1', 'BTC-SWAP-USDT', encodeCommand(place('grid-2')), 'sent', T + 1, T + 1);
    row.run('grid-3', 'grid', null, 'BTC-SWAP-USDT', encodeCommand(place('grid-3')), 'accepted', T + 2, T + 2);
    v1.prepare("INSERT INTO journal_sequence (strategy_id, value) VALUES ('grid', 3)").run();
    v1.close();

    const store = unwrap(StateStore.open(tmp.dir));
    expect(store.describe().schemaVersion).toBe(2);
    const journal = store.journal();
    expect(journal.unsettled().map((e) => e.id)).toEqual(['grid-2', 'grid-3']);
    expect(journal.findByKey('grid', 'level-1')?.id).toBe('grid-2');
    expect(journal.get('grid-1')).toMatchObject({ state: 'rejected', intentKey: 'level-1', command: place('grid-1') });
    expect(journal.nextSequence('grid')).toBe(4);
    journal.append({ id: 'grid-4', strategyId: 'grid', intentKey: 'level-1', command: place('grid-4'), time: T + 3, state: 'sent' });
    expect(journal.findByKey('grid', 'level-1')?.id).toBe('grid-4');
    expect(journal.unsettled().map((e) => e.id)).toEqual(['grid-2', 'grid-3', 'grid-4']);
    store.close();

    const raw = new Database(path, { readonly: true });
    expect(raw.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE sql LIKE '%AUTOINCREMENT%'").get()).toEqual({ n: 0 });
    expect(raw.prepare('SELECT COUNT(*) AS n FROM sqlite_sequence').get()).toEqual({ n: 0 });
    raw.close();
  });

  it('refuses a file written by a newer schema', () => {
    unwrap(StateStore.open(tmp.dir)).close();
    const raw = new Database(join(tmp.dir, STATE_FILE));
    raw.pragma('user_version = 99');
    raw.close();
    const opened = StateStore.open(tmp.dir);
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.error.code).toBe('STATE_SCHEMA_NEWER');
  });
});
