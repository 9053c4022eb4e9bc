import { SimExchange } from '../../../src/sim/engine/sim-exchange.js';
import type { SimResult } from '../../../src/sim/engine/types.js';
import { ACCOUNT, d, engine, order, PARENT, standardBook, SUB, T0 } from './engine-support.js';

function value<T>(result: SimResult<T>): T {
  if (!result.ok) throw new Error(`rejected: ${result.error.code} ${result.error.msg}`);
  return result.value;
}

const SUB_ACCOUNT = { userId: SUB, category: 'USDT' } as const;

/** A resting buy far below the market under the client id `clientOrderId`. */
function rest(ex: SimExchange, clientOrderId: string, ref = ACCOUNT): string {
  return value(ex.placeOrder(ref, order({ side: 'BUY', price: d('90000'), quantity: d('1'), clientOrderId }))).orderId;
}

describe('orders found by client order id (indexed)', () => {
  test('a reused client id finds the open order first, else the newest finished one; another account never sees it', () => {
    const { ex } = engine();
    standardBook(ex);
    const first = rest(ex, 'same');
    value(ex.cancelOrder(ACCOUNT, { clientOrderId: 'same' }));
    const second = rest(ex, 'same');
    expect(value(ex.getOrder(ACCOUNT, { clientOrderId: 'same' })).orderId).toBe(second);
    value(ex.cancelOrder(ACCOUNT, { orderId: second }));
    const third = rest(ex, 'same');
    value(ex.cancelOrder(ACCOUNT, { orderId: third }));
    expect(value(ex.getOrder(ACCOUNT, { clientOrderId: 'same' })).orderId).toBe(third);
    expect(value(ex.getOrder(ACCOUNT, { orderId: first })).clientOrderId).toBe('same');
    expect(ex.getOrder(SUB_ACCOUNT, { clientOrderId: 'same' })).toMatchObject({ ok: false, error: { code: -2013 } });
    const theirs = rest(ex, 'same', SUB_ACCOUNT);
    expect(value(ex.getOrder(SUB_ACCOUNT, { clientOrderId: 'same' })).orderId).toBe(theirs);
    expect(value(ex.getOrder(ACCOUNT, { clientOrderId: 'same' })).orderId).toBe(third);
  });

  test('a modify that renames the order moves it to its new client id; the old id finds what else carries it', () => {
    const { ex } = engine();
    standardBook(ex);
    const older = rest(ex, 'a');
    value(ex.cancelOrder(ACCOUNT, { orderId: older }));
    const renamed = rest(ex, 'b');
    value(ex.modifyOrder(ACCOUNT, { clientOrderId: 'b' }, { price: d('90001'), quantity: d('1'), priceType: 'INPUT', newClientOrderId: 'a', generation: 'v2' }));
    expect(value(ex.getOrder(ACCOUNT, { clientOrderId: 'a' }))).toMatchObject({ orderId: renamed, status: 'NEW' });
    expect(ex.getOrder(ACCOUNT, { clientOrderId: 'b' })).toMatchObject({ ok: false, error: { code: -2013 } });
    value(ex.cancelOrder(ACCOUNT, { clientOrderId: 'a' }));
    // Both finished now: the newer of the two.
    expect(value(ex.getOrder(ACCOUNT, { clientOrderId: 'a' })).orderId).toBe(renamed);
    // A modify without a new id gets a generated one.
    const third = rest(ex, 'c');
    const modified = value(ex.modifyOrder(ACCOUNT, { orderId: third }, { price: d('90002'), quantity: d('1'), priceType: 'INPUT', generation: 'v2' }));
    expect(modified.clientOrderId).not.toBe('c');
    expect(value(ex.getOrder(ACCOUNT, { clientOrderId: modified.clientOrderId })).orderId).toBe(third);
    expect(ex.getOrder(ACCOUNT, { clientOrderId: 'c' })).toMatchObject({ ok: false, error: { code: -2013 } });
  });

  test('an order the history let go is no longer found by its client id; the newer ones with that id still are', () => {
    const ex = new SimExchange({ startTime: T0, history: { maxRecords: 2 }, users: [{ userId: PARENT, email: 'p@x.io', balances: { FUTURES: { USDT: '100000' } } }] });
    standardBook(ex);
    const ids = [1, 2, 3].map(() => {
      const id = rest(ex, 'kept');
      value(ex.cancelOrder(ACCOUNT, { orderId: id }));
      return id;
    });
    expect(ex.getOrder(ACCOUNT, { orderId: ids[0] ?? '' })).toMatchObject({ ok: false, error: { code: -2013 } });
    expect(value(ex.getOrder(ACCOUNT, { clientOrderId: 'kept' })).orderId).toBe(ids[2]);
    const gone = rest(ex, 'once');
    value(ex.cancelOrder(ACCOUNT, { orderId: gone }));
    for (let i = 0; i < 2; i++) value(ex.cancelOrder(ACCOUNT, { orderId: rest(ex, `other-${i}`) }));
    expect(ex.getOrder(ACCOUNT, { clientOrderId: 'once' })).toMatchObject({ ok: false, error: { code: -2013 } });
    expect(ex.getOrder(ACCOUNT, { clientOrderId: 'kept' })).toMatchObject({ ok: false, error: { code: -2013 } });
  });
});
