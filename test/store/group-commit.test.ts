import { dec } from '../../src/core/decimal.js';
import { unwrap } from '../../src/core/result.js';
import type { PlaceOrderCommand } from '../../src/model/commands.js';
import { GroupCommit } from '../../src/store/group-commit.js';
import { StateStore } from '../../src/store/state-file/state-store.js';
import { tmpStateDir } from './tmp-state-dir.js';

const T = 1_767_225_600_000;

function place(clientOrderId: string): PlaceOrderCommand {
  return { type: 'place-order', clientOrderId, symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price: dec('65000.1'), quantity: dec('0.5'), timeInForce: 'GTC' };
}

/** A group commit whose deferred starts and fsyncs the test runs by hand. */
function manual(): {
  readonly group: GroupCommit;
  readonly deferred: Array<() => void>;
  readonly syncs: Array<(error: Error | null) => void>;
  readonly failures: Error[];
  turn(): void;
} {
  const deferred: Array<() => void> = [];
  const syncs: Array<(error: Error | null) => void> = [];
  const failures: Error[] = [];
  const group = new GroupCommit({ sync: (done) => syncs.push(done), defer: (work) => deferred.push(work), onFailure: (error) => failures.push(error) });
  return { group, deferred, syncs, failures, turn: () => deferred.splice(0).forEach((work) => work()) };
}

describe('GroupCommit: one fsync for the commits of a turn, started after it', () => {
  it('starts no fsync inside the turn that committed; one fsync after it covers every commit of the turn', async () => {
    const m = manual();
    m.group.committed();
    m.group.committed();
    m.group.committed();
    expect(m.syncs).toHaveLength(0);
    expect(m.group.unsynced).toBe(3);
    m.turn();
    expect(m.syncs).toHaveLength(1);
    const durable = m.group.durable();
    m.syncs[0]?.(null);
    await durable;
    expect(m.group.unsynced).toBe(0);
    expect(m.group.stats).toEqual({ commits: 3, durable: 3, syncs: 1 });
  });

  it('commits made while an fsync is in flight wait for the next one, which starts once it is back', async () => {
    const m = manual();
    m.group.committed();
    m.turn();
    const first = m.group.durable();
    m.group.committed();
    const second = m.group.durable();
    m.turn();
    expect(m.syncs).toHaveLength(1);
    let secondDone = false;
    void second.then(() => (secondDone = true));
    m.syncs[0]?.(null);
    await first;
    expect(secondDone).toBe(false);
    expect(m.group.unsynced).toBe(1);
    m.turn();
    expect(m.syncs).toHaveLength(2);
    m.syncs[1]?.(null);
    await second;
    expect(m.group.stats).toEqual({ commits: 2, durable: 2, syncs: 2 });
  });

  it('a failed fsync is reported once, rejects the waiters and starts no other fsync', async () => {
    const m = manual();
    m.group.committed();
    m.turn();
    const durable = m.group.durable();
    m.syncs[0]?.(new Error('EIO: i/o error, fdatasync'));
    await expect(durable).rejects.toThrow('EIO');
    m.group.committed();
    m.turn();
    expect(m.syncs).toHaveLength(1);
    expect(m.failures.map((e) => e.message)).toEqual(['EIO: i/o error, fdatasync']);
    await expect(m.group.durable()).rejects.toThrow('EIO');
  });

  it('close waits for the fsync in flight before its file may be closed, and starts no other', () => {
    const m = manual();
    m.group.committed();
    m.turn();
    let closed = false;
    m.group.close(() => (closed = true));
    expect(closed).toBe(false);
    m.group.committed();
    m.syncs[0]?.(null);
    expect(closed).toBe(true);
    m.turn();
    expect(m.syncs).toHaveLength(1);
  });
});

describe('StateStore with durability disk: commits in the OS at once, fsynced in groups on a worker thread', () => {
  const tmp = tmpStateDir();
  afterAll(() => tmp.remove());

  it('opens the log with synchronous=NORMAL and group fsyncs; the journal commits of one turn share one fsync', async () => {
    const store = unwrap(StateStore.open(tmp.dir, { durability: 'disk' }));
    expect(store.describe()).toMatchObject({ journalMode: 'wal', synchronous: 'NORMAL', fsync: 'group' });
    const group = store.groupCommit;
    if (group === undefined) throw new Error('expected a group commit');
    const journal = store.journal();
    const before = group.stats;
    journal.atomically(() => {
      journal.append({ id: 'a-1', strategyId: 'grid', command: place('a-1'), time: T });
      journal.update('a-1', { state: 'sent', time: T });
    });
    journal.append({ id: 'a-2', strategyId: 'grid', command: place('a-2'), time: T });
    store.keyValue('grid').set('level', 3);
    // In the operating system already: readable, not yet fsynced.
    expect(journal.get('a-1')?.state).toBe('sent');
    expect(group.unsynced).toBe(3);
    await group.durable();
    expect(group.unsynced).toBe(0);
    expect(group.stats.syncs - before.syncs).toBe(1);
    store.close();
    const reopened = unwrap(StateStore.open(tmp.dir, { durability: 'disk' }));
    expect(reopened.journal().get('a-2')?.state).toBe('pending');
    expect(reopened.keyValue('grid').get('level')).toBe(3);
    reopened.close();
  });

  it('os durability has no group commit (fsyncs at checkpoints only)', () => {
    const store = unwrap(StateStore.open(tmp.dir, { durability: 'os' }));
    expect(store.describe()).toMatchObject({ synchronous: 'NORMAL', fsync: 'checkpoint' });
    expect(store.groupCommit).toBeUndefined();
    store.close();
  });
});
