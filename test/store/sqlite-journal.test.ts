import Database from 'better-sqlite3';
import { join } from 'node:path';
import { InvariantError } from '../../src/core/errors.js';
import { unwrap } from '../../src/core/result.js';
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
    expect(store.describe()).toEqual({ path: join(dir, STATE_FILE), journalMode: 'wal', synchronous: 'FULL', lockingMode: 'exclusive', fsync: 'commit', pageCacheKiB: 2048, schemaVersion: 1 });
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
