import { dec } from '../../src/core/decimal.js';
import { InvariantError } from '../../src/core/errors.js';
import type { PlaceOrderCommand } from '../../src/model/commands.js';
import type { OrderJournal } from '../../src/model/journal.js';

export const T = 1_767_225_600_000;

export function place(clientOrderId: string, symbol = 'BTC-SWAP-USDT'): PlaceOrderCommand {
  return { type: 'place-order', clientOrderId, symbol, side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price: dec('65000.1'), quantity: dec('0.5'), timeInForce: 'GTC' };
}

/** What every OrderJournal must do (the SQLite one and the in-memory one of backtests run these). */
export function describeJournalContract(name: string, open: () => { readonly journal: OrderJournal; close(): void }): void {
  describe(name, () => {
    let journal: OrderJournal;
    let close: () => void;
    beforeEach(() => {
      const opened = open();
      journal = opened.journal;
      close = () => opened.close();
    });
    afterEach(() => close());

    it('appends an entry in state pending with its command revived', () => {
      journal.append({ id: 'a-1', strategyId: 'grid', intentKey: 'level-3', command: place('a-1'), time: T });
      expect(journal.get('a-1')).toEqual({
        id: 'a-1', strategyId: 'grid', intentKey: 'level-3', symbol: 'BTC-SWAP-USDT', command: place('a-1'), state: 'pending', createdAt: T, updatedAt: T,
      });
      expect(journal.get('nope')).toBeUndefined();
    });

    it('appends an entry already in state sent when asked (its send follows in the same commit): unsettled, one row', () => {
      journal.append({ id: 'a-2', strategyId: 'grid', intentKey: 'level-4', command: place('a-2'), time: T, state: 'sent' });
      expect(journal.get('a-2')).toEqual({
        id: 'a-2', strategyId: 'grid', intentKey: 'level-4', symbol: 'BTC-SWAP-USDT', command: place('a-2'), state: 'sent', createdAt: T, updatedAt: T,
      });
      expect(journal.unsettled().map((e) => [e.id, e.state])).toEqual([['a-2', 'sent']]);
      expect(journal.findByKey('grid', 'level-4')?.state).toBe('sent');
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

    it("meets an admission with the id's entry first, else the key's newest, else nothing (get, then findByKey)", () => {
      journal.append({ id: 'm-1', strategyId: 'grid', intentKey: 'tp', command: place('m-1'), time: T });
      journal.update('m-1', { state: 'done', time: T + 1 });
      journal.append({ id: 'm-2', strategyId: 'grid', intentKey: 'tp', command: place('m-2'), time: T + 2 });
      journal.append({ id: 'm-3', strategyId: 'grid', intentKey: 'sl', command: place('m-3'), time: T + 3 });
      journal.append({ id: 'm-4', strategyId: 'grid', command: place('m-4'), time: T + 4 });
      const met = (id: string, strategyId: string, key: string | undefined): string | undefined => journal.findForAdmission(id, strategyId, key)?.id;
      expect(met('m-3', 'grid', 'sl')).toBe('m-3'); // id and key at the same row
      expect(met('m-1', 'grid', 'sl')).toBe('m-1'); // both hit, at different rows: the id's
      expect(met('m-3', 'grid', 'tp')).toBe('m-3');
      expect(met('m-4', 'other', 'tp')).toBe('m-4'); // the id alone, whoever owns it
      expect(met('m-4', 'grid', undefined)).toBe('m-4');
      expect(met('new', 'grid', 'tp')).toBe('m-2'); // the key alone: its newest entry
      expect(journal.findForAdmission('new', 'grid', 'tp')).toEqual(journal.findByKey('grid', 'tp'));
      expect(journal.findForAdmission('m-1', 'grid', 'sl')).toEqual(journal.get('m-1'));
      expect(met('new', 'other', 'tp')).toBeUndefined(); // the key of another strategy
      expect(met('new', 'grid', 'none')).toBeUndefined();
      expect(met('new', 'grid', undefined)).toBeUndefined();
    });

    it('counts a sequence per strategy from 1', () => {
      expect([journal.nextSequence('a'), journal.nextSequence('a'), journal.nextSequence('b'), journal.nextSequence('a')]).toEqual([1, 2, 1, 3]);
    });

    it('reserves a sequence value the exchange has seen: the next one is above it, and a reservation never lowers it', () => {
      journal.nextSequence('a');
      journal.reserveSequence('a', 7);
      journal.reserveSequence('b', 3);
      journal.reserveSequence('a', 2);
      expect([journal.nextSequence('a'), journal.nextSequence('b'), journal.nextSequence('a')]).toEqual([8, 4, 9]);
      expect(() =>
        journal.atomically(() => {
          journal.reserveSequence('c', 50);
          throw new Error('undone');
        }),
      ).toThrow('undone');
      expect(journal.nextSequence('c')).toBe(1);
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
    it('atomically: a nested piece of work that throws is undone alone; the outer one keeps its other writes', () => {
      journal.atomically(() => {
        journal.append({ id: 'n-1', strategyId: 'grid', intentKey: 'k', command: place('n-1'), time: T });
        expect(() =>
          journal.atomically(() => {
            journal.update('n-1', { state: 'done', time: T + 1 });
            journal.append({ id: 'n-2', strategyId: 'grid', intentKey: 'k', command: place('n-2'), time: T + 1 });
            journal.purgeSettled(T + 5);
            journal.nextSequence('grid');
            throw new InvariantError('TEST', 'inner work fails');
          }),
        ).toThrow(InvariantError);
        journal.update('n-1', { state: 'sent', time: T + 2 });
      });
      expect(journal.get('n-1')).toMatchObject({ state: 'sent', updatedAt: T + 2 });
      expect(journal.get('n-2')).toBeUndefined();
      expect(journal.findByKey('grid', 'k')?.id).toBe('n-1');
      expect(journal.unsettled().map((e) => e.id)).toEqual(['n-1']);
      expect(journal.nextSequence('grid')).toBe(1);
    });

    it('keeps unsettled entries in append order while their states move, and finds a key among the entries a purge left', () => {
      for (const [i, id] of ['u-1', 'u-2', 'u-3'].entries()) journal.append({ id, strategyId: 'grid', intentKey: 'same', command: place(id), time: T + i });
      journal.update('u-1', { state: 'done', time: T + 10 });
      journal.update('u-3', { state: 'accepted', time: T + 10 });
      journal.update('u-1', { state: 'unknown', time: T + 11, detail: 'reopened' });
      expect(journal.unsettled().map((e) => [e.id, e.state])).toEqual([
        ['u-1', 'unknown'],
        ['u-2', 'pending'],
        ['u-3', 'accepted'],
      ]);
      journal.update('u-3', { state: 'done', time: T + 12 });
      expect(journal.findByKey('grid', 'same')?.id).toBe('u-3');
      expect(journal.purgeSettled(T + 100)).toBe(1);
      expect(journal.findByKey('grid', 'same')?.id).toBe('u-2');
      expect(journal.unsettled().map((e) => e.id)).toEqual(['u-1', 'u-2']);
      journal.append({ id: 'u-3', strategyId: 'grid', command: place('u-3'), time: T + 101 });
      expect(journal.get('u-3')?.state).toBe('pending');
    });
  });
}
