import type { JournalState } from '../../../src/model/journal.js';
import { FailingJournal } from '../../support/failing-journal.js';
import { ACCOUNT, BTC, limit, Rig, rig } from './execution-support.js';

function openOnEngine(r: Rig): string[] {
  return r.ex.openOrders(ACCOUNT, { limit: 100 }).map((o) => o.clientOrderId);
}

/** Records, at each call of the port's cancelOrder and placeOrder, the journal state of `id` (absent: undefined). */
function watchSends(r: Rig, id: string): Array<[string, JournalState | undefined]> {
  const seen: Array<[string, JournalState | undefined]> = [];
  const { cancelOrder, placeOrder } = r.faulty;
  r.faulty.cancelOrder = (command) => {
    seen.push(['cancel', r.journal.get(id)?.state]);
    return cancelOrder(command);
  };
  r.faulty.placeOrder = (command) => {
    seen.push(['place', r.journal.get(id)?.state]);
    return placeOrder(command);
  };
  return seen;
}

/** A rig whose journal fails on demand (`journal.failWith`). */
function failingRig(): { r: Rig; journal: FailingJournal } {
  const base = rig();
  base.disconnectStream();
  base.executor.close();
  const journal = new FailingJournal(base.journal);
  return { r: new Rig(base.clock, base.ex, base.port, journal), journal };
}

describe('Executor: a cancel goes out before its journal row', () => {
  test('the cancel is on the wire before its row exists; the row is in before its stream event or its reply is handled', async () => {
    const r = rig();
    const a = r.executor.clientOrderId('alpha', 'a');
    await r.executor.submit('alpha', limit(a, 'BUY', '99000'), 'a');
    const cancelId = 'alpha/cancel-order/1.1';
    const sends = watchSends(r, cancelId);
    // What the cancel did reaches the journal (the order done) from its stream event, which the in-process
    // exchange raises inside the call, or else from its reply: the cancel's row is in by then.
    const handled: Array<[string, JournalState | undefined]> = [];
    const update = r.journal.update.bind(r.journal);
    r.journal.update = (id, change): void => {
      if (id === a) handled.push([change.state, r.journal.get(cancelId)?.state]);
      update(id, change);
    };
    expect(await r.executor.execute('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: a })).toBe('done');
    expect(sends).toEqual([['cancel', undefined]]);
    expect(handled).toEqual([['done', 'sent']]);
    expect(r.journal.get(cancelId)).toMatchObject({ state: 'done', command: { clientOrderId: a } });
    expect(openOnEngine(r)).toEqual([]);
  });

  test('the place after a cancel in the same turn does not wait for the cancel’s row: it is committed once the turn’s requests are out', async () => {
    const r = rig({ latency: { orderLatencyMs: 30, ackLatencyMs: 20 } });
    const a = r.executor.clientOrderId('alpha', 'a');
    const placed = r.executor.submit('alpha', limit(a, 'BUY', '99000'), 'a');
    r.clock.advanceBy(50);
    await placed;
    const cancelId = 'alpha/cancel-order/1.1';
    const sends = watchSends(r, cancelId);
    const b = r.executor.clientOrderId('alpha', 'b');
    const cancelled = r.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: a });
    const replaced = r.executor.submit('alpha', limit(b, 'BUY', '98000'), 'b');
    expect(sends).toEqual([
      ['cancel', undefined],
      ['place', undefined],
    ]);
    expect(r.journal.get(b)?.state).toBe('sent');
    await Promise.resolve();
    expect(r.journal.get(cancelId)?.state).toBe('sent');
    r.clock.advanceBy(50);
    await Promise.all([cancelled, replaced]);
    expect(r.journal.get(cancelId)?.state).toBe('done');
    expect(openOnEngine(r)).toEqual([b]);
  });

  test('with a journal that cannot be written a cancel is still sent (tracked in memory, the journal unhealthy) and a place is not', async () => {
    const { r, journal } = failingRig();
    const [a, b, c] = ['a', 'b', 'c'].map((key) => r.executor.clientOrderId('alpha', key)) as [string, string, string];
    await r.executor.submit('alpha', limit(a, 'BUY', '99000'), 'a');
    await r.executor.submit('alpha', limit(b, 'BUY', '98000'), 'b');
    // Before the disk fills: one cancel draws the session, so the next one's own row is what fails.
    await r.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: b });
    expect(openOnEngine(r)).toEqual([a]);

    journal.failWith = 'SQLITE_FULL';
    expect(await r.executor.execute('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: a })).toBe('done');
    expect(r.faulty.count('cancelOrder')).toBe(2);
    expect(openOnEngine(r)).toEqual([]);
    expect(r.journal.get('alpha/cancel-order/1.2')).toBeUndefined();
    expect(r.executor.journalHealth.state.writable).toBe(false);
    expect(r.executor.journalHealth.unavailable).toContain('SQLITE_FULL');
    expect(r.of('command.submitted').map((e) => e.command.type)).toEqual(['place-order', 'place-order', 'cancel-order', 'cancel-order']);
    expect(r.executor.pendingCount()).toBe(0);
    expect(r.executor.openOrdersOf('alpha')).toEqual([]);

    expect(await r.executor.execute('alpha', limit(c, 'BUY', '97000'), 'c')).toBe('unjournaled');
    expect(r.faulty.count('placeOrder')).toBe(2);
    expect(r.of('command.failed').map((e) => [e.command.type, e.failure.code])).toEqual([['place-order', 'JOURNAL_UNAVAILABLE']]);
    expect(openOnEngine(r)).toEqual([]);
  });

  test('with no session drawn yet and the journal failing, a cancel goes under a memory-only id', async () => {
    const { r, journal } = failingRig();
    const a = r.executor.clientOrderId('alpha', 'a');
    await r.executor.submit('alpha', limit(a, 'BUY', '99000'), 'a');
    journal.failWith = 'SQLITE_IOERR';
    expect(await r.executor.execute('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: a })).toBe('done');
    expect(openOnEngine(r)).toEqual([]);
    expect(r.executor.journalHealth.state.writable).toBe(false);
    // Writable again: the next cancel draws a session and is journaled.
    journal.failWith = undefined;
    const b = r.executor.clientOrderId('alpha', 'b');
    await r.executor.submit('alpha', limit(b, 'BUY', '98000'), 'b');
    await r.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: b });
    expect(r.executor.journalHealth.state.writable).toBe(true);
    expect(r.journal.get('alpha/cancel-order/1.2')).toMatchObject({ state: 'done', command: { clientOrderId: b } });
  });
});
