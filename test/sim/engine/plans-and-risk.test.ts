import { ACCOUNT, BTC, d, depth, engine, mark, order, standardBook, T0, trade } from './engine-support.js';
import type { AlgoOrderView, OrderView, SimResult } from '../../../src/sim/engine/types.js';

function value<T>(result: SimResult<T>): T {
  if (!result.ok) throw new Error(`rejected: ${result.error.code} ${result.error.msg}`);
  return result.value;
}

function open(ex: ReturnType<typeof engine>['ex'], side: 'BUY' | 'SELL', qty: string, extra: Partial<Parameters<typeof order>[0]> = {}): OrderView {
  return value(ex.placeOrder(ACCOUNT, order({ side, type: 'MARKET', quantity: d(qty), ...extra })));
}

describe('plan orders trigger by contract or mark price and link the order they create', () => {
  test.each([
    ['CONTRACT_PRICE', 'trade'],
    ['MARK_PRICE', 'mark'],
  ] as const)('STOP_MARKET by %s', (triggerBy, source) => {
    const { ex } = engine();
    standardBook(ex);
    const plan = value(ex.placePlanOrder(ACCOUNT, { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: d('100100'), triggerBy, quantity: d('1'), timeInForce: 'GTC', clientOrderId: 'p1' }));
    expect(plan).toMatchObject({ status: 'ORDER_NEW', type: 'STOP_MARKET', price: '0', stopPrice: '100100', executedOrderId: '0' });
    // The other source reaching the level does not fire it.
    if (source === 'trade') mark(ex, T0 + 5, '100200');
    else trade(ex, T0 + 5, '100200', '1', false);
    expect(value(ex.getAlgoOrder(ACCOUNT, { orderId: plan.orderId })).status).toBe('ORDER_NEW');
    if (source === 'trade') trade(ex, T0 + 10, '100100', '1', false);
    else mark(ex, T0 + 10, '100100');
    const fired = value(ex.getAlgoOrder(ACCOUNT, { orderId: plan.orderId }));
    expect(fired.status).toBe('ORDER_FILLED');
    expect(fired.executedOrderId).not.toBe('0');
    const created = value(ex.getOrder(ACCOUNT, { orderId: fired.executedOrderId }));
    expect(created).toMatchObject({ type: 'MARKET', status: 'FILLED', executedQty: '1', sourceAlgoOrderId: plan.orderId });
  });

  test('a falling STOP (limit after trigger) fires when the price drops to it', () => {
    const { ex } = engine();
    standardBook(ex);
    const plan = value(ex.placePlanOrder(ACCOUNT, { symbol: BTC, side: 'SELL', positionSide: 'SHORT', type: 'STOP', stopPrice: d('99900'), price: d('99000'), triggerBy: 'CONTRACT_PRICE', quantity: d('1'), timeInForce: 'GTC', clientOrderId: 'p2' }));
    trade(ex, T0 + 10, '99950', '1', true);
    expect(value(ex.getAlgoOrder(ACCOUNT, { orderId: plan.orderId })).status).toBe('ORDER_NEW');
    trade(ex, T0 + 20, '99900', '1', true);
    const fired = value(ex.getAlgoOrder(ACCOUNT, { orderId: plan.orderId }));
    expect(fired.status).toBe('ORDER_FILLED');
    expect(value(ex.getOrder(ACCOUNT, { orderId: fired.executedOrderId })).type).toBe('LIMIT');
  });

  test('canceled plans never fire; lists filter by stopCategory', () => {
    const { ex } = engine();
    standardBook(ex);
    const plan = value(ex.placePlanOrder(ACCOUNT, { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: d('100100'), triggerBy: 'CONTRACT_PRICE', quantity: d('1'), timeInForce: 'GTC', clientOrderId: 'p3' }));
    expect(ex.openAlgoOrders(ACCOUNT, { stopCategory: 'STOP', limit: 20 })).toHaveLength(1);
    expect(ex.openAlgoOrders(ACCOUNT, { stopCategory: 'STOP_PROFIT_LOSS', limit: 20 })).toHaveLength(0);
    value(ex.cancelAlgoOrder(ACCOUNT, { orderId: plan.orderId }));
    trade(ex, T0 + 10, '100200', '1', false);
    expect(value(ex.getAlgoOrder(ACCOUNT, { orderId: plan.orderId })).status).toBe('ORDER_CANCELED');
    expect(ex.historyAlgoOrders(ACCOUNT, { stopCategory: 'STOP', limit: 20 })).toHaveLength(1);
  });
});

describe('take-profit and stop-loss', () => {
  test('attached TP/SL appear when the order fills, follow its quantity, and the SL closes the position', () => {
    const { ex } = engine();
    standardBook(ex);
    open(ex, 'BUY', '2', { stopLoss: { triggerPrice: d('99500'), triggerBy: 'CONTRACT_PRICE', orderType: 'MARKET' }, takeProfit: { triggerPrice: d('101000'), triggerBy: 'MARK_PRICE', orderType: 'MARKET' } });
    const rows = ex.openAlgoOrders(ACCOUNT, { stopCategory: 'STOP_PROFIT_LOSS', limit: 20 });
    expect(rows.map((r) => [r.tpsl?.stopOrderType, r.origQty, r.side, r.positionSide, r.type])).toEqual([
      ['STOP_LOSS', '2', 'SELL', 'LONG', 'STOP_PROFIT_LOSS_MARKET'],
      ['TAKE_PROFIT', '2', 'SELL', 'LONG', 'STOP_PROFIT_LOSS_MARKET'],
    ]);
    standardBook(ex, T0 + 5);
    trade(ex, T0 + 10, '99500', '1', true);
    expect(ex.positions(ACCOUNT)).toEqual([]);
    const after = ex.historyAlgoOrders(ACCOUNT, { stopCategory: 'STOP_PROFIT_LOSS', limit: 20 });
    expect(after.map((r) => [r.tpsl?.stopOrderType, r.status])).toEqual([
      ['STOP_LOSS', 'ORDER_FILLED'],
      ['TAKE_PROFIT', 'ORDER_CANCELED'],
    ]);
  });

  test('TP/SL on the wrong side of the price is refused with the side-specific code', () => {
    const { ex } = engine();
    standardBook(ex);
    open(ex, 'BUY', '1');
    const wrong = ex.setPositionStops(ACCOUNT, { symbol: BTC, positionSide: 'LONG', takeProfit: { triggerPrice: d('99000'), triggerBy: 'CONTRACT_PRICE', orderType: 'MARKET' } });
    expect(wrong.ok ? 0 : wrong.error.code).toBe(-3141);
    const none = ex.setPositionStops(ACCOUNT, { symbol: BTC, positionSide: 'SHORT', stopLoss: { triggerPrice: d('101000'), triggerBy: 'CONTRACT_PRICE', orderType: 'MARKET' } });
    expect(none.ok ? 0 : none.error.code).toBe(-3145);
  });

  test('a trailing stop activates at its price, tracks the peak and fires on the callback', () => {
    const { ex } = engine();
    standardBook(ex);
    open(ex, 'BUY', '1');
    const [sl] = value(ex.setPositionStops(ACCOUNT, { symbol: BTC, positionSide: 'LONG', stopLoss: { triggerPrice: d('99000'), triggerBy: 'CONTRACT_PRICE', orderType: 'MARKET' } })) as AlgoOrderView[];
    if (sl === undefined) throw new Error('no row');
    const trailing = value(
      ex.modifyAlgoOrder(ACCOUNT, { orderId: sl.orderId }, 'STOP_PROFIT_LOSS', {
        quantity: d('0'),
        price: d('0'),
        stopPrice: d('0'),
        triggerBy: 'CONTRACT_PRICE',
        stopType: 'TRAILING_STOP',
        trailing: { activePrice: d('100500'), fallbackType: 'RATE', fallbackQuantity: d('0.01') },
      }),
    );
    expect(trailing.tpsl).toMatchObject({ stopType: 'TRAILING_STOP', activeStatus: 0, activePrice: '100500', fallbackType: 'RATE', fallbackQuantity: '0.01' });
    standardBook(ex, T0 + 1);
    trade(ex, T0 + 10, '99000', '1', true); // below the old fixed stop: a trailing row is not fixed any more
    expect(ex.positions(ACCOUNT)).toHaveLength(1);
    trade(ex, T0 + 20, '100500', '1', false);
    expect(value(ex.getAlgoOrder(ACCOUNT, { orderId: sl.orderId })).tpsl?.activeStatus).toBe(1);
    trade(ex, T0 + 30, '102000', '1', false);
    expect(value(ex.getAlgoOrder(ACCOUNT, { orderId: sl.orderId })).stopPrice).toBe('100980');
    trade(ex, T0 + 40, '100981', '1', true);
    expect(value(ex.getAlgoOrder(ACCOUNT, { orderId: sl.orderId })).status).toBe('ORDER_NEW');
    standardBook(ex, T0 + 45);
    trade(ex, T0 + 50, '100980', '1', true);
    expect(value(ex.getAlgoOrder(ACCOUNT, { orderId: sl.orderId })).status).toBe('ORDER_FILLED');
    expect(ex.positions(ACCOUNT)).toEqual([]);
  });
});

describe('trailing activation is reported (document 001: activeStatus, planExecutionReport)', () => {
  test('reaching the activation price pushes a plan event with activeStatus 1; the row keeps 1 once it fired', () => {
    const { ex, events } = engine();
    standardBook(ex);
    open(ex, 'BUY', '1');
    const [sl] = value(ex.setPositionStops(ACCOUNT, { symbol: BTC, positionSide: 'LONG', stopLoss: { triggerPrice: d('99000'), triggerBy: 'CONTRACT_PRICE', orderType: 'MARKET' } })) as AlgoOrderView[];
    if (sl === undefined) throw new Error('no row');
    value(
      ex.modifyAlgoOrder(ACCOUNT, { orderId: sl.orderId }, 'STOP_PROFIT_LOSS', {
        quantity: d('0'),
        price: d('0'),
        stopPrice: d('0'),
        triggerBy: 'CONTRACT_PRICE',
        stopType: 'TRAILING_STOP',
        trailing: { activePrice: d('100500'), fallbackType: 'RATE', fallbackQuantity: d('0.01') },
      }),
    );
    const planEvents = (): AlgoOrderView[] => events.flatMap((e) => (e.type === 'plan' && e.plan.orderId === sl.orderId ? [e.plan] : []));
    const before = planEvents().length;
    standardBook(ex, T0 + 1);
    trade(ex, T0 + 10, '100400', '1', false); // below the activation price: nothing to report
    expect(planEvents()).toHaveLength(before);
    trade(ex, T0 + 20, '100500', '1', false);
    const activation = planEvents().slice(before);
    expect(activation.map((p) => [p.status, p.tpsl?.activeStatus, p.updateTime])).toEqual([['ORDER_NEW', 1, T0 + 20]]);
    const quote = events.find((e) => e.type === 'plan' && e.plan.orderId === sl.orderId && e.time === T0 + 20);
    expect(quote?.type === 'plan' ? quote.quotePrice : undefined).toBe('100500');
    trade(ex, T0 + 30, '102000', '1', false); // a new peak moves the level but activates nothing new
    expect(planEvents().slice(before)).toHaveLength(1);
    standardBook(ex, T0 + 45);
    trade(ex, T0 + 50, '100980', '1', true);
    const filled = value(ex.getAlgoOrder(ACCOUNT, { orderId: sl.orderId }));
    expect(filled.status).toBe('ORDER_FILLED');
    expect(filled.tpsl?.activeStatus).toBe(1);
    expect(planEvents().at(-1)?.tpsl?.activeStatus).toBe(1);
    // The stop's own close order flattened the position: the row reports FILLED, never CANCELED first.
    expect(planEvents().map((p) => p.status)).not.toContain('ORDER_CANCELED');
  });
});

describe('funding and liquidation', () => {
  test('funding settles at each boundary on the mark price: longs pay shorts when positive', () => {
    const { ex } = engine();
    standardBook(ex);
    open(ex, 'BUY', '10');
    const wallet = Number(ex.futuresBalance(ACCOUNT).balance);
    const nextFunding = T0 + 8 * 3_600_000;
    ex.applyMarketEvent({ type: 'funding', ts: T0 + 1, symbol: BTC, rate: '0.0001', nextFundingTime: nextFunding, period: '8H' });
    ex.applyMarketEvent({ type: 'funding', ts: nextFunding - 1, symbol: BTC, rate: '0.0002', nextFundingTime: nextFunding, period: '8H' });
    expect(Number(ex.futuresBalance(ACCOUNT).balance)).toBe(wallet);
    ex.applyMarketEvent({ type: 'funding', ts: nextFunding, symbol: BTC, rate: '0.0003', nextFundingTime: nextFunding + 8 * 3_600_000, period: '8H' });
    // 10 contracts × 0.001 BTC × 100000 mark × 0.0002 = 0.2 USDT paid by the long.
    expect(ex.futuresBalance(ACCOUNT).balance).toBe(String(Number((wallet - 0.2).toFixed(8))));
    expect(ex.balanceFlows({ userId: '100', kind: 'FUNDING', limit: 10 })).toEqual([expect.objectContaining({ change: '-0.2', flowTypeValue: 32, symbol: BTC })]);
  });

  test('an isolated position is liquidated at the mark price when its risk rate reaches 100', () => {
    const { ex } = engine();
    standardBook(ex);
    value(ex.setMarginType(ACCOUNT, BTC, 'ISOLATED'));
    value(ex.setLeverage(ACCOUNT, BTC, 50));
    open(ex, 'BUY', '10');
    const [position] = ex.positions(ACCOUNT);
    expect(position).toMatchObject({ marginType: 'ISOLATED', leverage: '50' });
    const liquidation = Number(position?.liquidationPrice);
    expect(liquidation).toBeGreaterThan(98000);
    expect(liquidation).toBeLessThan(99000);
    mark(ex, T0 + 10, (Math.ceil(liquidation) + 1).toFixed(0));
    expect(ex.positions(ACCOUNT)).toHaveLength(1);
    mark(ex, T0 + 20, Math.floor(liquidation).toFixed(0));
    expect(ex.positions(ACCOUNT)).toEqual([]);
    const flows = ex.balanceFlows({ userId: '100', kind: 'LIQUIDATION', limit: 10 });
    expect(flows).toHaveLength(1);
    // The loss is capped at the isolated margin (10 × 0.001 × ~100000 / 50 ≈ 20).
    expect(Number(flows[0]?.change)).toBeGreaterThanOrEqual(-20.01);
  });

  test('a cross account is liquidated when cross equity no longer covers maintenance', () => {
    const { ex } = engine('1000');
    standardBook(ex);
    value(ex.setLeverage(ACCOUNT, BTC, 50));
    open(ex, 'BUY', '40');
    expect(ex.positions(ACCOUNT)).toHaveLength(1);
    const liquidation = Number(ex.positions(ACCOUNT)[0]?.liquidationPrice);
    mark(ex, T0 + 10, (Math.ceil(liquidation) + 1).toFixed(0));
    expect(ex.positions(ACCOUNT)).toHaveLength(1);
    mark(ex, T0 + 20, Math.floor(liquidation).toFixed(0));
    expect(ex.positions(ACCOUNT)).toEqual([]);
    expect(Number(ex.futuresBalance(ACCOUNT).balance)).toBeGreaterThanOrEqual(0);
  });

  test('margin type cannot change with a position; leverage is bounded by the risk tier', () => {
    const { ex } = engine();
    standardBook(ex);
    const tooHigh = ex.setLeverage(ACCOUNT, BTC, 51);
    expect(tooHigh.ok ? 0 : tooHigh.error.code).toBe(-3132);
    open(ex, 'BUY', '1');
    const busy = ex.setMarginType(ACCOUNT, BTC, 'ISOLATED');
    expect(busy.ok ? 0 : busy.error.code).toBe(-3128);
  });

  test("a held position's risk tier bounds the leverage: past the first tier's 42,000 contracts, 25 at most", () => {
    const { ex } = engine('10000000');
    depth(ex, T0, [['99999.9', '50000']], [['100000', '50000']]);
    mark(ex, T0, '100000');
    value(ex.setLeverage(ACCOUNT, BTC, 20));
    open(ex, 'BUY', '42000');
    value(ex.setLeverage(ACCOUNT, BTC, 50));
    value(ex.setLeverage(ACCOUNT, BTC, 20));
    open(ex, 'BUY', '0.1');
    const tooHigh = ex.setLeverage(ACCOUNT, BTC, 26);
    expect(tooHigh.ok ? 0 : tooHigh.error.code).toBe(-3132);
    value(ex.setLeverage(ACCOUNT, BTC, 25));
  });
});
