import { SimExchange } from '../../../src/sim/engine/sim-exchange.js';
import type { HistoryRetention } from '../../../src/sim/engine/engine-state.js';
import type { SimResult } from '../../../src/sim/engine/types.js';
import { ACCOUNT, BTC, d, mark, order, PARENT, standardBook, T0, trade } from './engine-support.js';

const MINUTE = 60_000;

function value<T>(result: SimResult<T>): T {
  if (!result.ok) throw new Error(`rejected: ${result.error.code} ${result.error.msg}`);
  return result.value;
}

function engineWith(history: Partial<HistoryRetention>): SimExchange {
  const ex = new SimExchange({ startTime: T0, history, users: [{ userId: PARENT, email: 'p@x.io', balances: { FUTURES: { USDT: '100000' } } }] });
  standardBook(ex);
  return ex;
}

/** A resting buy far from the market, cancelled at once: one finished order. */
function placeAndCancel(ex: SimExchange): string {
  const placed = value(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('90000'), quantity: d('1') })));
  value(ex.cancelOrder(ACCOUNT, { orderId: placed.orderId }));
  return placed.orderId;
}

function size(ex: SimExchange, name: string): number | undefined {
  return ex.sizes().find((s) => s.name === name)?.size;
}

describe('the simulator keeps finished records only as long as its history retention', () => {
  test('beyond the count, the oldest finished orders go; open orders, however old, stay', () => {
    const ex = engineWith({ maxRecords: 3 });
    const resting = value(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('90000'), quantity: d('1') })));
    const finished = [1, 2, 3, 4, 5].map(() => placeAndCancel(ex));
    expect(ex.historyOrders(ACCOUNT, { limit: 100 }).map((o) => o.orderId)).toEqual(finished.slice(2).reverse());
    for (const gone of finished.slice(0, 2)) expect(ex.getOrder(ACCOUNT, { orderId: gone })).toMatchObject({ ok: false, error: { code: -2013 } });
    expect(value(ex.getOrder(ACCOUNT, { orderId: resting.orderId })).status).toBe('NEW');
    expect(ex.sizes()).toEqual(
      expect.arrayContaining([
        { name: 'sim.orders', size: 4, limit: 4 },
        { name: 'sim.finishedOrders', size: 3, limit: 3 },
      ]),
    );
  });

  test('past the age (market time), finished orders, trades and flows go; younger ones stay queryable', () => {
    const ex = engineWith({ maxAgeMs: 10 * MINUTE });
    const early = placeAndCancel(ex);
    // A taker buy that fills: a trade, and fee flows.
    const filled = value(ex.placeOrder(ACCOUNT, order({ side: 'BUY', type: 'MARKET', quantity: d('1') })));
    expect(size(ex, 'sim.trades')).toBeGreaterThan(0);
    expect(size(ex, 'sim.balanceFlows')).toBeGreaterThan(0);
    mark(ex, T0 + 6 * MINUTE, '100000');
    const later = placeAndCancel(ex);
    mark(ex, T0 + 11 * MINUTE, '100000');
    expect(ex.getOrder(ACCOUNT, { orderId: early })).toMatchObject({ ok: false, error: { code: -2013 } });
    expect(ex.getOrder(ACCOUNT, { orderId: filled.orderId })).toMatchObject({ ok: false, error: { code: -2013 } });
    expect(value(ex.getOrder(ACCOUNT, { orderId: later })).status).toBe('CANCELED');
    expect(ex.userTrades(ACCOUNT, { symbol: BTC, limit: 100 })).toEqual([]);
    expect(size(ex, 'sim.trades')).toBe(0);
    expect(size(ex, 'sim.balanceFlows')).toBe(0);
    expect(size(ex, 'sim.finishedOrders')).toBe(1);
  });

  test('the age is checked as the market moves, not only when orders finish', () => {
    const ex = engineWith({ maxAgeMs: 10 * MINUTE });
    const id = placeAndCancel(ex);
    ex.advanceTo(T0 + 9 * MINUTE);
    expect(value(ex.getOrder(ACCOUNT, { orderId: id })).status).toBe('CANCELED');
    ex.advanceTo(T0 + 12 * MINUTE);
    expect(ex.getOrder(ACCOUNT, { orderId: id })).toMatchObject({ ok: false, error: { code: -2013 } });
  });

  test('trades are bounded per account by the count', () => {
    const ex = engineWith({ maxRecords: 2 });
    for (let i = 0; i < 4; i++) value(ex.placeOrder(ACCOUNT, order({ side: 'BUY', type: 'MARKET', quantity: d('0.5') })));
    expect(ex.userTrades(ACCOUNT, { symbol: BTC, limit: 100 })).toHaveLength(2);
    expect(size(ex, 'sim.balanceFlows')).toBeLessThanOrEqual(2);
  });

  test('finished plan rows go past the age; open ones stay', () => {
    const ex = engineWith({ maxAgeMs: 10 * MINUTE });
    const plan = { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: d('100100'), triggerBy: 'CONTRACT_PRICE', quantity: d('1'), timeInForce: 'GTC' } as const;
    const canceled = value(ex.placePlanOrder(ACCOUNT, { ...plan, clientOrderId: 'gone' }));
    value(ex.cancelAlgoOrder(ACCOUNT, { orderId: canceled.orderId }));
    const open = value(ex.placePlanOrder(ACCOUNT, { ...plan, stopPrice: d('200000'), clientOrderId: 'stays' }));
    trade(ex, T0 + 11 * MINUTE, '100000', '0.1', false);
    expect(ex.getAlgoOrder(ACCOUNT, { orderId: canceled.orderId })).toMatchObject({ ok: false, error: { code: -2013 } });
    expect(value(ex.getAlgoOrder(ACCOUNT, { orderId: open.orderId })).status).toBe('ORDER_NEW');
    expect(size(ex, 'sim.algoOrders')).toBe(1);
  });

  test('the default keeps two weeks and 20 000 records', () => {
    const ex = new SimExchange({ startTime: T0, users: [{ userId: PARENT, email: 'p@x.io' }] });
    expect(ex.sizes().find((s) => s.name === 'sim.finishedOrders')?.limit).toBe(20_000);
    expect(() => new SimExchange({ startTime: T0, users: [], history: { maxRecords: 0 } })).toThrow(RangeError);
  });
});
