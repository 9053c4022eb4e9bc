import Database from 'better-sqlite3';
import { join } from 'node:path';
import { dec } from '../../src/core/decimal.js';
import { InvariantError } from '../../src/core/errors.js';
import { unwrap } from '../../src/core/result.js';
import type { PlaceOrderCommand } from '../../src/model/commands.js';
import type { OrderJournal } from '../../src/model/journal.js';
import { STATE_FILE, StateStore } from '../../src/store/state-store.js';
import { tmpStateDir } from './tmp-state-dir.js';

const T = 1_767_225_600_000;

function place(clientOrderId: string, symbol = 'BTC-SWAP-USDT'): PlaceOrderCommand {
  return { type: 'place-order', clientOrderId, symbol, side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price: dec('65000.1'), quantity: dec('0.5'), timeInForce: 'GTC' };
}

describe('SqliteJournal semantics (in memory)', () => {
  let store: StateStore;
  let journal: OrderJournal;
  beforeEach(() => {
    store = StateStore.inMemory();
    journal = store.journal();
  });
  afterEach(() => store.close());

  it('appends an entry in state pending with its command revived', () => {
    journal.append({ id: 'a-1', strategyId: 'grid', intentKey: 'level-3', command: place('a-1'), time: T });
    expect(journal.get('a-1')).toEqual({
      id: 'a-1', strategyId: 'grid', intentKey: 'level-3', symbol: 'BTC-SWAP-USDT', command: place('a-1'), state: 'pending', createdAt: T, updatedAt: T,
    });
    expect(journal.get('nope')).toBeUndefined();
  });

  it('omits absent optional fields', () => {
    journal.append({ id: 'c-1', strategyId: 'grid', command: { type: 'cancel-all', symbol: 'ETH-SWAP-USDT' }, time: T });
    const entry = journal.get('c-1');
    expect(entry).toEqual({ id: 'c-1', strategyId: 'grid', symbol: 'ETH-SWAP-USDT', command: { type: 'cancel-all', symbol: 'ETH-SWAP-USDT' }, state: 'pending', createdAt: T, updatedAt: T });
    expect(entry !== undefined && 'intentKey' in entry).toBe(false);
  });

  it('throws an InvariantError on a duplicate id and keeps the first entry', () => {
    journal.append({ id: 'a-1', strategyId: 'grid', command: place('a-1'), time: T });
    expect(() => journal.append({ id: 'a-1', strategyId: 'other', command: place('a-1', 'ETH-SWAP-USDT'), time: T + 1 })).toThrow(InvariantError);
    expect(journal.get('a-1')?.strategyId).toBe('grid');
  });

  it('updates state and time; exchangeOrderId and detail stay until replaced', () => {
    journal.append({ id: 'a-1', strategyId: 'grid', command: place('a-1'), time: T });
    journal.update('a-1', { state: 'sent', time: T + 1 });
    journal.update('a-1', { state: 'accepted', time: T + 2, exchangeOrderId: '1234567890123456789' });
    journal.update('a-1', { state: 'unknown', time: T + 3, detail: 'timed out' });
    expect(journal.get('a-1')).toMatchObject({ state: 'unknown', exchangeOrderId: '1234567890123456789', detail: 'timed out', createdAt: T, updatedAt: T + 3 });
    journal.update('a-1', { state: 'done', time: T + 4, detail: 'FILLED' });
    expect(journal.get('a-1')).toMatchObject({ state: 'done', exchangeOrderId: '1234567890123456789', detail: 'FILLED', updatedAt: T + 4 });
  });

  it('throws an InvariantError when updating an unknown id', () => {
    expect(() => journal.update('ghost', { state: 'sent', time: T })).toThrow(InvariantError);
  });

  it('lists pending, sent, unknown and accepted entries as unsettled, in append order', () => {
    const states = ['pending', 'sent', 'unknown', 'accepted', 'rejected', 'done'] as const;
    states.forEach((state, i) => {
      const id = `s-${i}`;
      journal.append({ id, strategyId: 'grid', command: place(id), time: T + i });
      if (state !== 'pending') journal.update(id, { state, time: T + 10 });
    });
    expect(journal.unsettled().map((e) => [e.id, e.state])).toEqual([
      ['s-0', 'pending'],
      ['s-1', 'sent'],
      ['s-2', 'unknown'],
      ['s-3', 'accepted'],
    ]);
  });

  it('finds by strategy and intent key, the newest entry when a key was reused', () => {
    journal.append({ id: 'k-1', strategyId: 'grid', intentKey: 'tp', command: place('k-1'), time: T });
    journal.update('k-1', { state: 'done', time: T + 1 });
    journal.append({ id: 'k-2', strategyId: 'grid', intentKey: 'tp', command: place('k-2'), time: T + 2 });
    journal.append({ id: 'k-3', strategyId: 'other', intentKey: 'tp', command: place('k-3'), time: T + 3 });
    expect(journal.findByKey('grid', 'tp')?.id).toBe('k-2');
    expect(journal.findByKey('other', 'tp')?.id).toBe('k-3');
    expect(journal.findByKey('grid', 'sl')).toBeUndefined();
    expect(journal.findByKey('nobody', 'tp')).toBeUndefined();
  });

  it('counts a sequence per strategy from 1', () => {
    expect([journal.nextSequence('a'), journal.nextSequence('a'), journal.nextSequence('b'), journal.nextSequence('a')]).toEqual([1, 2, 1, 3]);
  });

  it('purges only settled entries last updated before the time', () => {
    for (const [id, state, time] of [
      ['old-done', 'done', T],
      ['old-rejected', 'rejected', T + 1],
      ['old-accepted', 'accepted', T + 2],
      ['new-done', 'done', T + 100],
    ] as const) {
      journal.append({ id, strategyId: 'grid', command: place(id), time });
      journal.update(id, { state, time });
    }
    expect(journal.purgeSettled(T + 100)).toBe(2);
    expect(journal.get('old-done')).toBeUndefined();
    expect(journal.get('old-rejected')).toBeUndefined();
    expect(journal.get('old-accepted')?.state).toBe('accepted');
    expect(journal.get('new-done')?.state).toBe('done');
    expect(journal.purgeSettled(T + 100)).toBe(0);
  });

  it('atomically: the writes of one piece of work commit together, or not at all when it throws', () => {
    const answer = journal.atomically(() => {
      journal.append({ id: 'x-1', strategyId: 'grid', command: place('x-1'), time: T });
      journal.update('x-1', { state: 'sent', time: T + 1 });
      return journal.nextSequence('grid');
    });
    expect(answer).toBe(1);
    expect(journal.get('x-1')).toMatchObject({ state: 'sent', updatedAt: T + 1 });
    expect(() =>
      journal.atomically(() => {
        journal.append({ id: 'x-2', strategyId: 'grid', command: place('x-2'), time: T });
        journal.nextSequence('grid');
        // Nested work joins the outer commit.
        journal.atomically(() => journal.update('x-1', { state: 'accepted', time: T + 2 }));
        journal.append({ id: 'x-1', strategyId: 'grid', command: place('x-1'), time: T });
      }),
    ).toThrow(InvariantError);
    expect(journal.get('x-2')).toBeUndefined();
    expect(journal.get('x-1')?.state).toBe('sent');
    expect(journal.nextSequence('grid')).toBe(2);
  });
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
