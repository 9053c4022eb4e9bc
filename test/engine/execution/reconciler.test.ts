import { dec } from '../../../src/core/decimal.js';
import type { Result } from '../../../src/core/result.js';
import type { ReconcileReport } from '../../../src/engine/execution/reconciler.js';
import type { ExchangeFailure } from '../../../src/model/exchange-port.js';
import { mark, order, trade } from '../../sim/engine/engine-support.js';
import { ACCOUNT, BTC, limit, rig, runFor, T0 } from './execution-support.js';

function report(result: Result<ReconcileReport, ExchangeFailure>): ReconcileReport {
  if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`);
  return result.value;
}

function openOnEngine(r: ReturnType<typeof rig>): string[] {
  return r.ex.openOrders(ACCOUNT, { limit: 100 }).map((o) => o.clientOrderId).sort();
}

describe('Reconciler: one path for start-up and reconnects', () => {
  test('restart with open orders: the new process adopts them from the journal, no duplicates', async () => {
    const first = rig();
    const a = first.executor.clientOrderId('alpha', 'a');
    const b = first.executor.clientOrderId('alpha');
    await first.executor.submit('alpha', limit(a, 'BUY', '99000'), 'a');
    await first.executor.submit('alpha', limit(b, 'SELL', '101000'));

    const second = first.restart();
    expect(second.executor.openOrdersOf('alpha').slice().sort()).toEqual([a, b].sort());
    const done = report(await second.reconciler.reconcile(0));
    expect(done).toMatchObject({ epoch: 0, openOrders: 2, settled: 0, adopted: 0, cancelled: 0, unresolved: 0 });
    expect(openOnEngine(second)).toEqual([a, b].sort());
    expect(second.cache.openOrders().map((o) => o.clientOrderId).sort()).toEqual([a, b].sort());
    expect(second.of('account.resynced')).toEqual([{ type: 'account.resynced', time: T0, epoch: 0, adopted: 0, cancelled: 0, settled: 0 }]);
    expect(second.of('account.balance')).toHaveLength(1);

    // The strategy re-emits its keyed intent after the restart: the same order, not a second one.
    await second.executor.submit('alpha', limit(a, 'BUY', '99000'), 'a');
    expect(second.faulty.count('placeOrder')).toBe(0);
    // New unkeyed ids continue the persisted sequence.
    expect(second.executor.clientOrderId('alpha')).toBe('alpha-2');
  });

  test('entries a crash left unsettled are settled by query: sent and placed → accepted, never arrived → rejected', async () => {
    const first = rig({ stream: false });
    first.faulty.inject('placeOrder', 'lose-reply', 'drop-request');
    const reached = first.executor.clientOrderId('alpha', 'reached');
    const lost = first.executor.clientOrderId('alpha', 'lost');
    await first.executor.submit('alpha', limit(reached, 'BUY', '99000'), 'reached');
    await first.executor.submit('alpha', limit(lost, 'BUY', '98000'), 'lost');
    expect([first.journal.get(reached)?.state, first.journal.get(lost)?.state]).toEqual(['unknown', 'unknown']);

    // The process dies before settling; the next one reconciles at start-up.
    const second = first.restart();
    const done = report(await second.reconciler.reconcile(0));
    expect(done).toMatchObject({ settled: 2, rejected: 1, unresolved: 0 });
    expect(second.journal.get(reached)?.state).toBe('accepted');
    expect(second.journal.get(lost)?.state).toBe('rejected');
    expect(second.of('command.failed').map((e) => e.failure.code)).toEqual(['NOT_FOUND']);
    expect(openOnEngine(second)).toEqual([reached]);
    expect(first.faulty.count('placeOrder') + second.faulty.count('placeOrder')).toBe(2);
  });

  test('orders the journal does not know are adopted: by their tag, else as external', async () => {
    const r = rig();
    r.ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: dec('97000'), quantity: dec('1'), clientOrderId: 'manual-1' }));
    r.ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: dec('96000'), quantity: dec('1'), clientOrderId: 'beta-lost-key' }));
    const done = report(await r.reconciler.reconcile(1));
    expect(done).toMatchObject({ adopted: 2, cancelled: 0 });
    expect(r.executor.ownerOf('manual-1')).toBe('external');
    expect(r.executor.ownerOf('beta-lost-key')).toBe('beta');
    expect(r.executor.openOrdersOf('beta')).toEqual(['beta-lost-key']);
    expect(r.journal.get('manual-1')?.state).toBe('accepted');
    expect(openOnEngine(r)).toEqual(['beta-lost-key', 'manual-1']);

    // A second run finds nothing new.
    expect(report(await r.reconciler.reconcile(2))).toMatchObject({ adopted: 0, cancelled: 0 });
  });

  test('with orphans: cancel, foreign orders are cancelled and ours stay', async () => {
    const first = rig();
    const ours = first.executor.clientOrderId('alpha', 'keep');
    await first.executor.submit('alpha', limit(ours, 'BUY', '99000'), 'keep');
    first.ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: dec('97000'), quantity: dec('1'), clientOrderId: 'manual-2' }));
    const second = first.restart({ orphans: 'cancel' });
    const done = report(await second.reconciler.reconcile(0));
    expect(done).toMatchObject({ adopted: 0, cancelled: 1 });
    expect(openOnEngine(second)).toEqual([ours]);
    expect(second.cache.openOrders().map((o) => o.clientOrderId)).toEqual([ours]);
    expect(second.cache.order('manual-2')?.status).toBe('CANCELED');
    expect(second.of('account.resynced')[0]).toMatchObject({ cancelled: 1 });
  });

  test('after a stream gap: missed fills and final states are published, flat positions too', async () => {
    const r = rig();
    const resting = r.executor.clientOrderId('alpha', 'rest');
    const taker = r.executor.clientOrderId('alpha', 'take');
    await r.executor.submit('alpha', limit(taker, 'BUY', '100000', '1'), 'take');
    await r.executor.submit('alpha', limit(resting, 'SELL', '100000.3', '1'), 'rest');
    expect(r.cache.position(BTC, 'LONG')?.qty.toFixed()).toBe('1');
    const fillsBefore = r.of('account.fill').length;

    // The stream drops; meanwhile the resting sell fills and the long is closed by another client.
    r.disconnectStream();
    await runFor(r.clock, 2000);
    trade(r.ex, T0 + 2000, '100000.4', '5', false);
    mark(r.ex, T0 + 2000, '100000');
    r.ex.placeOrder(ACCOUNT, order({ side: 'SELL', positionSide: 'LONG', type: 'MARKET', priceType: 'MARKET', quantity: dec('1'), clientOrderId: 'manual-close' }));
    expect(r.journal.get(resting)?.state).toBe('accepted');
    expect(r.cache.openOrders().map((o) => o.clientOrderId)).toEqual([resting]);

    r.connectStream();
    const done = report(await r.reconciler.reconcile(1));
    expect(r.journal.get(resting)?.state).toBe('done');
    expect(r.cache.order(resting)?.status).toBe('FILLED');
    expect(r.cache.openOrders()).toEqual([]);
    expect(done.fills).toBeGreaterThanOrEqual(2);
    const replayed = r.of('account.fill').slice(fillsBefore);
    expect(replayed.every((e) => e.source === 'rest')).toBe(true);
    expect(replayed.some((e) => e.fill.clientOrderId === resting)).toBe(true);
    expect(replayed.some((e) => e.fill.clientOrderId === 'manual-close')).toBe(true);
    expect(done.flattened).toBe(1);
    expect(r.cache.position(BTC, 'LONG')?.qty.toFixed() ?? '0').toBe('0');
    expect(r.cache.position(BTC, 'SHORT')?.qty.toFixed()).toBe('1');
    expect(r.of('account.resynced')).toHaveLength(1);
  });

  test('a failed account fetch is an error value; nothing is published', async () => {
    const r = rig();
    r.faulty.inject('fetchAccount', 'fail');
    const result = await r.reconciler.reconcile(3);
    expect(result.ok).toBe(false);
    expect(r.of('account.resynced')).toEqual([]);
    expect(r.reconciler.totals()).toMatchObject({ runs: 1, failures: 1 });
  });
});
