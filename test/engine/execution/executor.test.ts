import { dec } from '../../../src/core/decimal.js';
import type { OrderSnapshot } from '../../../src/model/orders.js';
import { trade } from '../../sim/engine/engine-support.js';
import { ACCOUNT, BTC, limit, rig, runFor, T0 } from './execution-support.js';

function openOnEngine(r: ReturnType<typeof rig>): string[] {
  return r.ex.openOrders(ACCOUNT, { limit: 100 }).map((o) => o.clientOrderId);
}

describe('Executor: journal first, then send; replies and stream events drive each order', () => {
  test('a place is journaled, accepted, and its fills come back as events until it is done', async () => {
    const r = rig();
    const id = r.executor.clientOrderId('alpha', 'bid-1');
    expect(id).toBe('alpha-bid-1');
    await r.executor.submit('alpha', limit(id, 'BUY', '99999.9', '2'), 'bid-1');
    expect(r.journal.get(id)).toMatchObject({ state: 'accepted', strategyId: 'alpha', intentKey: 'bid-1' });
    expect(r.journal.get(id)?.exchangeOrderId).toBeDefined();
    expect(r.of('command.submitted')).toHaveLength(1);
    expect(r.of('account.order').some((e) => e.source === 'rest' && e.order.clientOrderId === id && e.order.status === 'NEW')).toBe(true);
    expect(r.executor.ownerOf(id)).toBe('alpha');
    expect(r.executor.openOrdersOf('alpha')).toEqual([id]);
    expect(r.executor.pendingCount()).toBe(0);

    // Sells print through the bid: the order fills (queue ahead first), events arrive from the stream.
    trade(r.ex, T0 + 1000, '99999.8', '10', true);
    const fills = r.of('account.fill').filter((e) => e.fill.clientOrderId === id);
    expect(fills.map((e) => e.fill.qty.toFixed())).toEqual(['2']);
    expect(r.journal.get(id)?.state).toBe('done');
    expect(r.executor.openOrdersOf('alpha')).toEqual([]);
    expect(r.executor.ownerOf(id)).toBe('alpha');
  });

  test("every strategy's live orders in one list, strategy by strategy", async () => {
    const r = rig();
    // Placed beta first: the list follows the strategies' order, not the orders'.
    const [b, a] = [r.executor.clientOrderId('beta', 'ask'), r.executor.clientOrderId('alpha', 'bid')];
    for (const [strategy, id, key, price] of [['beta', b, 'ask', '99000'], ['alpha', a, 'bid', '98000']] as const) await r.executor.submit(strategy, limit(id, 'BUY', price), key);
    expect([r.executor.openOrdersOfAll(['alpha', 'beta']), r.executor.openOrdersOfAll(['beta']), r.executor.openOrdersOfAll([])]).toEqual([[a, b], [b], []]);
  });

  test('unkeyed ids come from the persisted sequence and are never reused', () => {
    const r = rig();
    expect([r.executor.clientOrderId('alpha'), r.executor.clientOrderId('alpha'), r.executor.clientOrderId('beta')]).toEqual(['alpha-1', 'alpha-2', 'beta-1']);
  });

  test('a lost reply leaves exactly one order; a query settles it as accepted; nothing is sent again', async () => {
    const r = rig({ stream: false });
    r.faulty.inject('placeOrder', 'lose-reply');
    const id = r.executor.clientOrderId('alpha', 'k1');
    await r.executor.submit('alpha', limit(id, 'BUY', '99000'), 'k1');
    expect(r.journal.get(id)?.state).toBe('unknown');
    expect(r.executor.pendingCount()).toBe(1);
    expect(r.executor.openOrdersOf('alpha')).toEqual([id]);
    expect(openOnEngine(r)).toEqual([id]);

    await runFor(r.clock, 1000);
    expect(r.journal.get(id)?.state).toBe('accepted');
    expect(r.faulty.count('queryOrder')).toBe(1);
    expect(r.faulty.count('placeOrder')).toBe(1);
    expect(openOnEngine(r)).toEqual([id]);
    expect(r.of('command.submitted')).toHaveLength(1);
    expect(r.of('account.order').some((e) => e.source === 'rest' && e.order.clientOrderId === id)).toBe(true);
    expect(r.executor.pendingCount()).toBe(0);

    // The strategy re-emits the same intent (say after a restart): recognised, not sent twice.
    await r.executor.submit('alpha', limit(id, 'BUY', '99000'), 'k1');
    expect(r.faulty.count('placeOrder')).toBe(1);
    expect(openOnEngine(r)).toEqual([id]);
  });

  test('with the stream up, its event settles a lost reply before any query', async () => {
    const r = rig();
    r.faulty.inject('placeOrder', 'lose-reply');
    const id = r.executor.clientOrderId('alpha', 'k2');
    await r.executor.submit('alpha', limit(id, 'BUY', '99000'), 'k2');
    expect(r.journal.get(id)?.state).toBe('accepted');
    await runFor(r.clock, 5000);
    expect(r.faulty.count('queryOrder')).toBe(0);
    expect(r.faulty.count('placeOrder')).toBe(1);
    expect(r.of('command.submitted')).toHaveLength(1);
  });

  test('an unknown outcome whose request never reached the exchange settles as rejected', async () => {
    const r = rig();
    r.faulty.inject('placeOrder', 'drop-request');
    const id = r.executor.clientOrderId('alpha', 'k3');
    await r.executor.submit('alpha', limit(id, 'BUY', '99000'), 'k3');
    expect(r.journal.get(id)?.state).toBe('unknown');
    await runFor(r.clock, 1000);
    expect(r.journal.get(id)?.state).toBe('rejected');
    expect(openOnEngine(r)).toEqual([]);
    expect(r.faulty.count('placeOrder')).toBe(1);
    const failed = r.of('command.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ strategyId: 'alpha', failure: { kind: 'not-found', code: 'NOT_FOUND', retryable: true } });
    expect(r.executor.openOrdersOf('alpha')).toEqual([]);

    // The key may be used again: the exchange never had that id.
    await r.executor.submit('alpha', limit(id, 'BUY', '99000'), 'k3');
    expect(r.journal.get(id)?.state).toBe('accepted');
    expect(openOnEngine(r)).toEqual([id]);
  });

  test.each(['throw', 'reject'] as const)('a port that fails to call (%s) leaves an unknown outcome, settled by query; nothing is sent again', async (fault) => {
    const r = rig({ stream: false });
    r.faulty.inject('placeOrder', fault);
    const id = r.executor.clientOrderId('alpha', `broken-${fault}`);
    await r.executor.submit('alpha', limit(id, 'BUY', '99000'), `broken-${fault}`);
    expect(r.journal.get(id)?.state).toBe('unknown');
    expect(r.executor.pendingCount()).toBe(1);
    await runFor(r.clock, 1000);
    expect(r.journal.get(id)?.state).toBe('rejected');
    expect(r.faulty.count('queryOrder')).toBe(1);
    expect(r.faulty.count('placeOrder')).toBe(1);
    expect(openOnEngine(r)).toEqual([]);
  });

  test('a failing settle query is retried with backoff until it answers', async () => {
    const r = rig({ stream: false });
    r.faulty.inject('placeOrder', 'lose-reply');
    r.faulty.inject('queryOrder', 'fail', 'fail');
    const id = r.executor.clientOrderId('alpha', 'k4');
    await r.executor.submit('alpha', limit(id, 'BUY', '99000'), 'k4');
    await runFor(r.clock, 1000 + 2000);
    expect(r.faulty.count('queryOrder')).toBe(2);
    expect(r.journal.get(id)?.state).toBe('unknown');
    await runFor(r.clock, 4000);
    expect(r.faulty.count('queryOrder')).toBe(3);
    expect(r.journal.get(id)?.state).toBe('accepted');
    expect(r.faulty.count('placeOrder')).toBe(1);
  });

  test('refusals fail at once; a finished key is a DUPLICATE', async () => {
    const r = rig();
    const bad = r.executor.clientOrderId('alpha', 'tick');
    await r.executor.submit('alpha', limit(bad, 'BUY', '99000.05'), 'tick');
    expect(r.journal.get(bad)?.state).toBe('rejected');
    expect(r.of('command.failed')[0]?.failure).toMatchObject({ kind: 'rejected', code: '-1134' });

    const taker = r.executor.clientOrderId('alpha', 'take');
    await r.executor.submit('alpha', limit(taker, 'BUY', '100000', '1'), 'take');
    expect(r.journal.get(taker)?.state).toBe('done');
    await r.executor.submit('alpha', limit(taker, 'BUY', '100000', '1'), 'take');
    expect(r.of('command.failed').at(-1)?.failure).toMatchObject({ kind: 'invalid', code: 'DUPLICATE' });
    expect(r.faulty.count('placeOrder')).toBe(2);
  });

  test('a cancel whose reply is lost settles by the order state; one that never arrived fails NOT_EFFECTIVE', async () => {
    const r = rig({ stream: false });
    const a = r.executor.clientOrderId('alpha', 'a');
    const b = r.executor.clientOrderId('alpha', 'b');
    await r.executor.submit('alpha', limit(a, 'BUY', '99000'), 'a');
    await r.executor.submit('alpha', limit(b, 'BUY', '98000'), 'b');
    r.faulty.inject('cancelOrder', 'lose-reply', 'drop-request');
    await r.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: a });
    await r.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: b });
    expect(r.executor.pendingCount()).toBe(2);
    await runFor(r.clock, 1000);
    expect(r.journal.get(a)?.state).toBe('done');
    expect(r.journal.get(b)?.state).toBe('accepted');
    expect(openOnEngine(r)).toEqual([b]);
    const failed = r.of('command.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ command: { type: 'cancel-order', clientOrderId: b }, failure: { code: 'NOT_EFFECTIVE' } });
    expect(r.faulty.count('cancelOrder')).toBe(2);
    expect(r.executor.openOrdersOf('alpha')).toEqual([b]);
    expect(r.executor.pendingCount()).toBe(0);
  });

  test('commands that place nothing are journaled under a session drawn once, unique across restarts, the strategy sequence untouched', async () => {
    const r = rig();
    const a = r.executor.clientOrderId('alpha', 'a');
    const b = r.executor.clientOrderId('alpha', 'b');
    await r.executor.submit('alpha', limit(a, 'BUY', '99000'), 'a');
    await r.executor.submit('alpha', limit(b, 'BUY', '98000'), 'b');
    let draws = 0;
    const nextSequence = r.journal.nextSequence.bind(r.journal);
    r.journal.nextSequence = (strategyId: string): number => {
      draws++;
      return nextSequence(strategyId);
    };
    await r.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: a });
    await r.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: b });
    // One draw for the session, none per command: a cancel's commit writes its own row only.
    expect(draws).toBe(1);
    expect(r.journal.get('alpha/cancel-order/1.1')).toMatchObject({ state: 'done', command: { clientOrderId: a } });
    expect(r.journal.get('alpha/cancel-order/1.2')).toMatchObject({ state: 'done', command: { clientOrderId: b } });
    expect(r.executor.clientOrderId('alpha')).toBe('alpha-1');

    const again = r.restart();
    const c = again.executor.clientOrderId('alpha', 'c');
    await again.executor.submit('alpha', limit(c, 'BUY', '97000'), 'c');
    await again.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: c });
    expect(again.journal.get('alpha/cancel-order/2.1')).toMatchObject({ state: 'done', command: { clientOrderId: c } });
    expect(again.journal.get('alpha/cancel-order/1.1')?.command).toMatchObject({ clientOrderId: a });
  });

  test('a stale event never regresses an order', async () => {
    const r = rig();
    const id = r.executor.clientOrderId('alpha', 's');
    await r.executor.submit('alpha', limit(id, 'BUY', '99000'), 's');
    const open = r.of('account.order').find((e) => e.order.clientOrderId === id && e.order.status === 'NEW')?.order as OrderSnapshot;
    await r.executor.submit('alpha', { type: 'cancel-order', symbol: BTC, clientOrderId: id });
    expect(r.journal.get(id)?.state).toBe('done');
    r.executor.onEvent({ type: 'account.order', source: 'stream', time: T0, order: open });
    expect(r.journal.get(id)?.state).toBe('done');
    expect(r.executor.openOrdersOf('alpha')).toEqual([]);
  });

  test('the order a plan row creates when it triggers belongs to the plan owner', async () => {
    const r = rig();
    const id = r.executor.clientOrderId('beta', 'plan');
    await r.executor.submit(
      'beta',
      { type: 'place-algo', clientOrderId: id, symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', triggerPrice: dec('100010'), triggerBy: 'CONTRACT_PRICE', price: dec('99000'), quantity: dec('1'), timeInForce: 'GTC' },
      'plan',
    );
    expect(r.executor.openOrdersOf('beta', 'algo')).toEqual([id]);
    trade(r.ex, T0 + 1000, '100010', '1', false);
    const child = r.ex.openOrders(ACCOUNT, { limit: 10 })[0];
    expect(child).toBeDefined();
    expect(r.executor.ownerOf(child?.clientOrderId ?? '')).toBe('beta');
    expect(r.executor.openOrdersOf('beta', 'order')).toEqual([child?.clientOrderId]);
    expect(r.journal.get(id)?.state).toBe('done');
  });

  test('with exchange latency (as in backtests): replies and events arrive later, settlement still queries once', async () => {
    const r = rig({ stream: false, latency: { orderLatencyMs: 30, ackLatencyMs: 20 } });
    const id = r.executor.clientOrderId('alpha', 'slow');
    r.faulty.inject('placeOrder', 'lose-reply');
    const submitted = r.executor.submit('alpha', limit(id, 'BUY', '99000'), 'slow');
    expect(r.journal.get(id)?.state).toBe('sent');
    expect(r.executor.pendingCount()).toBe(1);
    await runFor(r.clock, 50, 10);
    await submitted;
    expect(r.journal.get(id)?.state).toBe('unknown');
    // The query goes out 1000 ms after the lost reply and takes the round trip itself.
    await runFor(r.clock, 1000, 10);
    expect(r.faulty.count('queryOrder')).toBe(1);
    expect(r.journal.get(id)?.state).toBe('unknown');
    await runFor(r.clock, 50, 10);
    expect(r.journal.get(id)?.state).toBe('accepted');
    expect(r.faulty.count('queryOrder')).toBe(1);
    expect(openOnEngine(r)).toEqual([id]);
  });

  test('flush waits for submissions in flight', async () => {
    const r = rig();
    const pending = r.executor.submit('alpha', limit(r.executor.clientOrderId('alpha'), 'BUY', '99000'));
    await r.executor.flush();
    await pending;
    expect(r.executor.pendingCount()).toBe(0);
  });
});
