import { trade } from '../../sim/engine/engine-support.js';
import { ACCOUNT, BTC, drain, limit, rig, runFor, T0 } from './execution-support.js';

describe('Executor: a cancel the exchange refuses while its order is open here', () => {
  test('the order filled unseen (the stream down): the refusal makes the executor query it and publish the fill state', async () => {
    const r = rig();
    const a = r.executor.clientOrderId('alpha', 'a');
    await r.executor.submit('alpha', limit(a, 'BUY', '99999'), 'a');
    expect(r.journal.get(a)?.state).toBe('accepted');

    r.disconnectStream();
    await runFor(r.clock, 1000);
    trade(r.ex, T0 + 1000, '99998', '5', true);
    expect(r.ex.openOrders(ACCOUNT, { limit: 100 })).toEqual([]);
    expect(r.cache.openOrders().map((o) => o.clientOrderId)).toEqual([a]);

    await r.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: a });
    await r.executor.flush();
    expect(r.of('command.failed').map((e) => [e.command.type, e.failure.code])).toEqual([['cancel-order', '-1139']]);
    expect(r.faulty.count('queryOrder')).toBe(1);
    expect(r.cache.openOrders()).toEqual([]);
    expect(r.of('account.order').at(-1)?.order).toMatchObject({ clientOrderId: a, status: 'FILLED' });
    expect(r.journal.get(a)?.state).toBe('done');
  });

  test('a cancel of an order this side does not hold open asks nothing more', async () => {
    const r = rig();
    await r.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: 'never-placed' });
    await r.executor.flush();
    expect(r.of('command.failed').map((e) => e.command.type)).toEqual(['cancel-order']);
    expect(r.faulty.count('queryOrder')).toBe(0);
  });
});

describe('Executor: a reconciliation that ran while a place was on the wire', () => {
  test('the place’s reply shows the order open, the exchange has filled it since: a query after the reply closes it here', async () => {
    const r = rig();
    // The place reaches the exchange at once; its reply (NEW) is held back until `release`.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { placeOrder } = r.faulty;
    r.faulty.placeOrder = async (command) => {
      const result = await placeOrder(command);
      await held;
      return result;
    };
    r.disconnectStream();
    const a = r.executor.clientOrderId('alpha', 'a');
    const placed = r.executor.submit('alpha', limit(a, 'BUY', '99999'), 'a');
    await drain();
    expect(r.ex.openOrders(ACCOUNT, { limit: 100 }).map((o) => o.clientOrderId)).toEqual([a]);
    // The order fills unseen, and a reconciliation runs while the place's reply is still on its way.
    trade(r.ex, T0, '99998', '5', true);
    expect((await r.reconciler.reconcile(1)).ok).toBe(true);
    expect(r.journal.get(a)?.state).toBe('sent');
    expect(r.faulty.count('queryOrder')).toBe(0);
    release();
    await placed;
    await r.executor.flush();
    expect(r.faulty.count('queryOrder')).toBe(1);
    expect(r.journal.get(a)?.state).toBe('done');
    expect(r.cache.openOrders()).toEqual([]);
  });
});
