import { Decimal, dec } from '../../../src/core/decimal.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from './sim-harness.js';
import { BTC, ETH, failure, startSim, value } from './sim-harness.js';

/** Regular orders v1 and v2, batches, plan and TP/SL orders: the project's client against a running simulator. */
let s: RunningSim;
let trader: ExchangeClient;

beforeAll(async () => {
  s = await startSim();
  trader = s.client('trader');
});
afterAll(() => s.stop());
// Two seconds of virtual time between tests keep the client's ORDERS budget (48 per 2 s) fresh.
beforeEach(() => s.clock.advanceBy(2_500));

/** A price `factor` times the best bid, on the symbol's tick grid (BTC 0.1, ETH 0.01). */
async function priceNear(symbol: string, factor: string): Promise<Decimal> {
  const [book] = value(await trader.market.contractBookTicker(symbol));
  if (book === undefined) throw new Error(`no book ticker for ${symbol}`);
  const places = symbol === ETH ? 2 : 1;
  return book.bidPrice.mul(factor).toDecimalPlaces(places, Decimal.ROUND_DOWN);
}

describe('v2 regular orders', () => {
  it('limit far below the market: place, open, get, modify, cancel, history', async () => {
    const price = await priceNear(BTC, '0.9');
    const placed = value(await trader.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price, quantity: dec(2), newClientOrderId: 'v2-far-1' }));
    expect(placed).toMatchObject({ symbol: BTC, clientOrderId: 'v2-far-1', type: 'LIMIT', side: 'BUY', positionSide: 'LONG', status: 'NEW' });
    expect(placed.price.eq(price)).toBe(true);

    const open = value(await trader.ordersV2.openOrders({ symbol: BTC }));
    expect(open.map((o) => o.orderId)).toContain(placed.orderId);
    expect(value(await trader.ordersV2.getOrder({ orderId: placed.orderId })).clientOrderId).toBe('v2-far-1');
    expect(value(await trader.ordersV2.getOrder({ origClientOrderId: 'v2-far-1' })).orderId).toBe(placed.orderId);

    const lower = price.sub('10');
    const modified = value(await trader.ordersV2.modifyOrder({ orderId: placed.orderId, price: lower, quantity: dec(3) }));
    expect(modified.price.eq(lower)).toBe(true);
    expect(modified.origQty.eq(3)).toBe(true);

    const canceled = value(await trader.ordersV2.cancelOrder({ orderId: placed.orderId }));
    expect(canceled.status).toBe('CANCELED');
    expect(value(await trader.ordersV2.openOrders({ symbol: BTC })).map((o) => o.orderId)).not.toContain(placed.orderId);
    const history = value(await trader.ordersV2.historyOrders({ symbol: BTC }));
    expect(history.find((o) => o.orderId === placed.orderId)?.status).toBe('CANCELED');
    expect(failure(await trader.ordersV2.getOrder({ orderId: '999999999' }))).toMatchObject({ kind: 'rejected', code: -2013 });
  });

  it('market order fills: a position appears, the futures balance moves, user trades list the fill', async () => {
    const before = value(await trader.account.futuresBalance());
    const usdtBefore = before.find((b) => b.coin === 'USDT');
    const filled = value(await trader.ordersV2.placeOrder({ symbol: ETH, side: 'BUY', positionSide: 'LONG', type: 'MARKET', quantity: dec(10), newClientOrderId: 'v2-mkt-1' }));
    expect(filled.type).toBe('MARKET');
    const queried = value(await trader.ordersV2.getOrder({ orderId: filled.orderId }));
    expect(queried.status).toBe('FILLED');
    expect(queried.executedQty.eq(10)).toBe(true);

    const positions = value(await trader.account.positions({ symbol: ETH }));
    const long = positions.find((p) => p.side === 'LONG');
    expect(long?.position.eq(10)).toBe(true);
    const usdtAfter = value(await trader.account.futuresBalance()).find((b) => b.coin === 'USDT');
    // The taker fee leaves the wallet; margin moves from available to the position.
    expect(usdtAfter?.balance.lt(usdtBefore?.balance ?? 0)).toBe(true);
    expect(usdtAfter?.positionMargin.gt(usdtBefore?.positionMargin ?? 0)).toBe(true);

    const trades = value(await trader.ordersV2.userTrades({ symbol: ETH }));
    const fills = trades.filter((t) => t.orderId === filled.orderId);
    expect(fills.length).toBeGreaterThan(0);
    expect(fills.reduce((sum, t) => sum.add(t.qty), dec(0)).eq(10)).toBe(true);
    expect(fills.every((t) => t.side === 'BUY' && t.positionSide === 'LONG' && !t.isMaker)).toBe(true);
  });

  it('batch of three with one failing leg; batch cancel of the symbol', async () => {
    const price = await priceNear(BTC, '0.9');
    const legs = value(
      await trader.ordersV2.placeBatch([
        { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price, quantity: dec(1), newClientOrderId: 'v2-batch-1' },
        { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: price.add('0.05'), quantity: dec(1), newClientOrderId: 'v2-batch-bad-tick' },
        { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price: price.sub(1), quantity: dec(1), newClientOrderId: 'v2-batch-3' },
      ]),
    );
    expect(legs.map((l) => l.code)).toEqual([200, -1134, 200]);
    expect(legs[0]?.order?.clientOrderId).toBe('v2-batch-1');
    expect(legs[1]?.order ?? undefined).toBeUndefined();
    expect(value(await trader.ordersV2.openOrders({ symbol: BTC })).map((o) => o.clientOrderId).sort()).toEqual(['v2-batch-1', 'v2-batch-3']);

    value(await trader.ordersV2.cancelAll([BTC]));
    expect(value(await trader.ordersV2.openOrders({ symbol: BTC }))).toEqual([]);
    const history = value(await trader.ordersV2.historyOrders({ symbol: BTC }));
    expect(history.filter((o) => o.clientOrderId.startsWith('v2-batch-')).map((o) => o.status)).toEqual(['CANCELED', 'CANCELED']);
  });

  it('TP/SL attached to an order become STOP_PROFIT_LOSS rows once it fills', async () => {
    const [book] = value(await trader.market.contractBookTicker(ETH));
    const ask = book?.askPrice ?? dec(0);
    const takeProfit = ask.mul('1.2').toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const stopLoss = ask.mul('0.8').toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const order = value(
      await trader.ordersV2.placeOrder({ symbol: ETH, side: 'BUY', positionSide: 'LONG', type: 'MARKET', quantity: dec(2), newClientOrderId: 'v2-tpsl-1', takeProfit, stopLoss }),
    );
    expect(value(await trader.ordersV2.getOrder({ orderId: order.orderId })).status).toBe('FILLED');
    const rows = value(await trader.algo.openAlgoOrders({ symbol: ETH, stopCategory: 'STOP_PROFIT_LOSS' }));
    const kinds = rows.map((r) => r.stopOrderType).sort();
    expect(kinds).toEqual(['STOP_LOSS', 'TAKE_PROFIT']);
    const tp = rows.find((r) => r.stopOrderType === 'TAKE_PROFIT');
    expect(tp?.stopPrice?.eq(takeProfit)).toBe(true);

    // TP/SL row update and the algo batch cancel of that family.
    const higher = takeProfit.add(1);
    const updated = value(await trader.algo.updateAlgoOrder({ type: 'STOP_PROFIT_LOSS', orderId: tp?.orderId ?? '', stopPrice: higher }));
    expect(updated.stopPrice?.eq(higher)).toBe(true);
    value(await trader.algo.cancelAllAlgoOrders([ETH], 'STOP_PROFIT_LOSS'));
    expect(value(await trader.algo.openAlgoOrders({ symbol: ETH, stopCategory: 'STOP_PROFIT_LOSS' }))).toEqual([]);
  });
});

describe('plan (algo) orders', () => {
  it('create, get, update, open, cancel, history; batch-cancel-algo-orders', async () => {
    const trigger = await priceNear(BTC, '1.2');
    const plan = value(
      await trader.algo.createPlanOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: trigger, quantity: dec(1), newClientOrderId: 'plan-1' }),
    );
    expect(plan).toMatchObject({ clientOrderId: 'plan-1', type: 'STOP_MARKET', status: 'ORDER_NEW' });
    expect(plan.stopPrice?.eq(trigger)).toBe(true);
    expect(value(await trader.algo.getAlgoOrder({ orderId: plan.orderId })).clientOrderId).toBe('plan-1');

    const moved = trigger.add(100);
    const updated = value(await trader.algo.updateAlgoOrder({ type: 'STOP', orderId: plan.orderId, stopPrice: moved, quantity: dec(2) }));
    expect(updated.stopPrice?.eq(moved)).toBe(true);
    expect(updated.origQty.eq(2)).toBe(true);
    expect(value(await trader.algo.openAlgoOrders({ symbol: BTC })).map((o) => o.orderId)).toEqual([plan.orderId]);

    const canceled = value(await trader.algo.cancelAlgoOrder({ orderId: plan.orderId }));
    expect(canceled.status).toBe('ORDER_CANCELED');
    expect(value(await trader.algo.historyAlgoOrders({ symbol: BTC })).find((o) => o.orderId === plan.orderId)?.status).toBe('ORDER_CANCELED');

    const limitPrice = trigger.add(50);
    for (const id of ['plan-2', 'plan-3']) {
      value(await trader.algo.createPlanOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'STOP', stopPrice: trigger, price: limitPrice, quantity: dec(1), newClientOrderId: id }));
    }
    expect(value(await trader.algo.openAlgoOrders({ symbol: BTC })).length).toBe(2);
    value(await trader.algo.cancelAllAlgoOrders([BTC], 'STOP'));
    expect(value(await trader.algo.openAlgoOrders({ symbol: BTC }))).toEqual([]);
  });
});

describe('v1 regular orders', () => {
  it('limit far below the market: create, open, get, update, cancel answers NEW, later query CANCELED', async () => {
    const price = await priceNear(BTC, '0.9');
    const created = value(await trader.ordersV1.orderV1Create({ symbol: BTC, side: 'BUY_OPEN', type: 'LIMIT', price, quantity: dec(2), newClientOrderId: 'v1-far-1' }));
    expect(created).toMatchObject({ kind: 'regular', clientOrderId: 'v1-far-1', side: 'BUY_OPEN', type: 'LIMIT' });
    expect(['NEW', 'PENDING_NEW']).toContain(created.status);

    expect(value(await trader.ordersV1.openOrdersV1({ symbol: BTC })).map((o) => o.orderId)).toContain(created.orderId);
    expect(value(await trader.ordersV1.orderV1Get({ orderId: created.orderId })).status).toBe('NEW');

    const lower = price.sub(5);
    // No newClientOrderId: the exchange generates one (document 000); the old id names the order no more.
    const updated = value(await trader.ordersV1.orderV1Update({ type: 'LIMIT', orderId: created.orderId, price: lower, quantity: dec(4) }));
    expect(updated.price.eq(lower)).toBe(true);
    expect(updated.origQty.eq(4)).toBe(true);
    expect(updated.clientOrderId).not.toBe('v1-far-1');

    const canceled = value(await trader.ordersV1.orderV1Cancel({ orderId: created.orderId, symbol: BTC }));
    expect(canceled.status).toBe('NEW');
    expect(value(await trader.ordersV1.orderV1Get({ origClientOrderId: updated.clientOrderId })).status).toBe('CANCELED');
    expect(value(await trader.ordersV2.historyOrders({ symbol: BTC })).find((o) => o.orderId === created.orderId)?.status).toBe('CANCELED');
  });

  it('market order (LIMIT + priceType MARKET) fills and closes part of the ETH long', async () => {
    const order = value(await trader.ordersV1.orderV1Create({ symbol: ETH, side: 'SELL_CLOSE', type: 'LIMIT', priceType: 'MARKET', quantity: dec(4), newClientOrderId: 'v1-mkt-close' }));
    expect(value(await trader.ordersV1.orderV1Get({ orderId: order.orderId })).status).toBe('FILLED');
    const long = value(await trader.account.positions({ symbol: ETH, side: 'LONG' }))[0];
    expect(long?.position.eq(8)).toBe(true); // 10 + 2 bought by the v2 tests, 4 closed here
  });

  it('batchOrders v1 (query-only signature): legs succeed or fail on their own', async () => {
    const price = await priceNear(ETH, '0.9');
    const legs = value(
      await trader.ordersV1.batchOrdersV1([
        { symbol: ETH, side: 'BUY_OPEN', type: 'LIMIT', price, quantity: dec(1), newClientOrderId: 'v1-batch-1' },
        { symbol: ETH, side: 'BUY_OPEN', type: 'LIMIT', price, quantity: dec('1.5'), newClientOrderId: 'v1-batch-bad-step' },
      ]),
    );
    expect(legs.map((l) => l.ok)).toEqual([true, false]);
    expect(legs[1]).toMatchObject({ ok: false, code: -1137 });
    const first = legs[0];
    if (first?.ok !== true) throw new Error('first leg failed');
    expect(first.order.clientOrderId).toBe('v1-batch-1');
    value(await trader.ordersV1.orderV1Cancel({ orderId: first.order.orderId }));
  });
  it('v1 STOP order: create, query and list as type STOP, update its trigger, cancel', async () => {
    const trigger = await priceNear(BTC, '1.2');
    const created = value(await trader.ordersV1.orderV1Create({ symbol: BTC, side: 'BUY_OPEN', type: 'STOP', stopPrice: trigger, quantity: dec(1), priceType: 'MARKET', newClientOrderId: 'v1-stop-1' }));
    const row = value(await trader.ordersV1.orderV1Get({ orderId: created.orderId, type: 'STOP' }));
    expect(row).toMatchObject({ kind: 'stop', clientOrderId: 'v1-stop-1', type: 'STOP' });
    expect(row.stopPrice.eq(trigger)).toBe(true);
    expect(value(await trader.ordersV1.openOrdersV1({ symbol: BTC, type: 'STOP' })).map((o) => o.orderId)).toEqual([created.orderId]);
    const moved = trigger.add(20);
    const updated = value(await trader.ordersV1.orderV1Update({ type: 'STOP', orderId: created.orderId, stopPrice: moved }));
    expect(updated.stopPrice.eq(moved)).toBe(true);
    value(await trader.ordersV1.orderV1Cancel({ orderId: created.orderId, type: 'STOP' }));
    expect(value(await trader.ordersV1.openOrdersV1({ symbol: BTC, type: 'STOP' }))).toEqual([]);
  });
  it('v1 TP/SL attached to a market order: listed as STOP_PROFIT_LOSS rows, updated with type STOP_PROFIT_LOSS', async () => {
    const [book] = value(await trader.market.contractBookTicker(ETH));
    const ask = book?.askPrice ?? dec(0);
    const takeProfit = ask.mul('1.25').toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const stopLoss = ask.mul('0.75').toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const order = value(
      await trader.ordersV1.orderV1Create({ symbol: ETH, side: 'BUY_OPEN', type: 'LIMIT', priceType: 'MARKET', quantity: dec(1), newClientOrderId: 'v1-tpsl-1', takeProfit, stopLoss }),
    );
    expect(value(await trader.ordersV1.orderV1Get({ orderId: order.orderId })).status).toBe('FILLED');
    const rows = value(await trader.ordersV1.openOrdersV1({ symbol: ETH, type: 'STOP' }));
    const tpsl = rows.filter((r) => r.kind === 'tpsl');
    expect(tpsl.map((r) => r.orderType).sort()).toEqual(['STOP_LONG_LOSS', 'STOP_LONG_PROFIT']);
    const loss = tpsl.find((r) => r.orderType === 'STOP_LONG_LOSS');
    expect(loss?.stopPrice.eq(stopLoss)).toBe(true);

    const lower = stopLoss.sub(1);
    const updated = value(await trader.ordersV1.orderV1Update({ type: 'STOP_PROFIT_LOSS', orderId: loss?.orderId ?? '', stopPrice: lower }));
    expect(updated).toMatchObject({ kind: 'tpsl', orderId: loss?.orderId });
    expect(updated.stopPrice.eq(lower)).toBe(true);
    value(await trader.algo.cancelAllAlgoOrders([ETH], 'STOP_PROFIT_LOSS'));
  });
});
