import { Decimal, dec } from '../../../src/core/decimal.js';
import type { Result } from '../../../src/core/result.js';
import type { PlaceAlgoCommand, PlaceOrderCommand } from '../../../src/model/commands.js';
import type { ExchangeFailure } from '../../../src/model/exchange-port.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import { VenueExchangePort } from '../../../src/venue/port/venue-exchange-port.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, BTC_USDC, ETH, startSim, T0, value } from '../../sim/e2e/sim-harness.js';
import { setFaults } from './admin-faults.js';

/** The live ExchangePort adapter against the real simulator over loopback, in virtual time. */
let s: RunningSim;
let trader: ExchangeClient;
let port: VenueExchangePort;

beforeAll(async () => {
  s = await startSim();
  trader = s.client('trader');
  port = new VenueExchangePort({ client: trader });
});
afterAll(() => s.stop());
// Fresh ORDERS budget between tests (48 per 2 s for the client).
beforeEach(() => s.clock.advanceBy(2_500));

function ok<T>(result: Result<T, ExchangeFailure>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value;
}

function failed<T>(result: Result<T, ExchangeFailure>): ExchangeFailure {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

/** `factor` times the best bid, on the tick grid (BTC 0.1, ETH 0.01). */
async function priceNear(symbol: string, factor: string): Promise<Decimal> {
  const [book] = value(await trader.market.contractBookTicker(symbol));
  if (book === undefined) throw new Error(`no book ticker for ${symbol}`);
  return book.bidPrice.mul(factor).toDecimalPlaces(symbol === ETH ? 2 : 1, Decimal.ROUND_DOWN);
}

function limitBuy(clientOrderId: string, symbol: string, price: Decimal, quantity: Decimal.Value): PlaceOrderCommand {
  return { type: 'place-order', clientOrderId, symbol, side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price, quantity: dec(quantity), timeInForce: 'GTC' };
}

describe('loadInstruments', () => {
  it('converts exchangeInfo to contracts: BTC step 0.0001 BTC at 0.001 BTC a contract is 0.1 contract', async () => {
    const instruments = ok(await port.loadInstruments());
    expect(instruments.map((i) => i.symbol).sort()).toEqual([BTC, BTC_USDC, ETH].sort());
    const btc = instruments.find((i) => i.symbol === BTC);
    const info = value(await trader.market.exchangeInfo()).contracts.find((c) => c.symbol === BTC);
    const lot = info?.filters.find((f) => f.filterType === 'LOT_SIZE');
    expect(lot?.filterType === 'LOT_SIZE' && lot.stepSize.eq('0.0001')).toBe(true);
    expect(btc).toMatchObject({ category: 'USDT', status: 'TRADING', baseAsset: 'BTC', marginAsset: 'USDT', maxOpenOrders: 200, maxOpenAlgoOrders: 100 });
    expect(btc?.contractMultiplier.eq('0.001')).toBe(true);
    expect(btc?.qtyStep.eq('0.1')).toBe(true);
    expect(btc?.minQty.eq(lot?.filterType === 'LOT_SIZE' ? lot.minQty.div('0.001') : -1)).toBe(true);
    expect(btc?.tickSize.eq('0.1')).toBe(true);
    expect(btc?.minNotional?.eq(5)).toBe(true);
    expect(btc?.maxNotional?.eq(6_600_000)).toBe(true);
    expect(btc?.limitBand?.buyUpRate.eq('0.1')).toBe(true);
    expect(btc?.marketBand?.sellDownRate.eq('0.1')).toBe(true);
    // The simulator's own leverage bound: the first risk tier's maxLeverage.
    const tiers = value(await trader.market.riskLimits(BTC));
    const first = tiers.find((t) => t.level === 1);
    expect(btc?.maxLeverage.toNumber()).toBe(first?.maxLeverage);
    expect(instruments.find((i) => i.symbol === ETH)?.qtyStep.eq(1)).toBe(true);
    expect(instruments.find((i) => i.symbol === BTC_USDC)).toMatchObject({ category: 'USDC', marginAsset: 'USDC' });
  });

  it('carries each contract\'s index token, so a refresh of the instruments refreshes the index channels', async () => {
    const instruments = ok(await port.loadInstruments());
    const info = value(await trader.market.exchangeInfo()).contracts;
    expect(instruments.map((i) => [i.symbol, i.indexToken]).sort()).toEqual(info.map((c) => [c.symbol, c.indexToken]).sort());
    expect(instruments.find((i) => i.symbol === BTC_USDC)?.indexToken).toBe('BTCUSDC');
  });
});

describe('regular orders', () => {
  it('place, query, modify, cancel by client order id; the simulator agrees at each step', async () => {
    const price = await priceNear(BTC, '0.9');
    const placed = ok(await port.placeOrder(limitBuy('port-1', BTC, price, '2.5')));
    expect(placed).toMatchObject({ symbol: BTC, clientOrderId: 'port-1', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', timeInForce: 'GTC', status: 'NEW' });
    expect(placed.quantity.eq('2.5')).toBe(true);
    expect(placed.price.eq(price)).toBe(true);
    expect(placed.filledQty.isZero()).toBe(true);
    expect(placed.updateTime).toBe(s.clock.now());
    const onSim = value(await trader.ordersV2.getOrder({ origClientOrderId: 'port-1' }));
    expect(onSim.orderId).toBe(placed.orderId);

    expect(ok(await port.queryOrder(BTC, 'port-1'))).toMatchObject({ orderId: placed.orderId, status: 'NEW' });

    s.clock.advanceBy(1000);
    const lower = price.sub(10);
    const modified = ok(await port.modifyOrder({ type: 'modify-order', symbol: BTC, clientOrderId: 'port-1', price: lower, quantity: dec(3) }));
    expect(modified.price.eq(lower)).toBe(true);
    expect(modified.quantity.eq(3)).toBe(true);
    // The update repeats the client id: omitted, the exchange would generate a new one (document 000).
    expect(modified.clientOrderId).toBe('port-1');
    expect(modified.updateTime).toBeGreaterThan(placed.updateTime);
    expect(value(await trader.ordersV2.getOrder({ orderId: placed.orderId })).price.eq(lower)).toBe(true);

    const canceled = ok(await port.cancelOrder({ type: 'cancel-order', symbol: BTC, clientOrderId: 'port-1' }));
    expect(canceled.status).toBe('CANCELED');
    expect(value(await trader.ordersV2.openOrders({ symbol: BTC })).map((o) => o.orderId)).not.toContain(placed.orderId);
  });

  it('an unknown client order id: query answers undefined, cancel is not-found', async () => {
    expect(ok(await port.queryOrder(BTC, 'never-placed'))).toBeUndefined();
    expect(ok(await port.queryAlgo(BTC, 'never-placed'))).toBeUndefined();
    expect(failed(await port.cancelOrder({ type: 'cancel-order', symbol: BTC, clientOrderId: 'never-placed' }))).toMatchObject({ kind: 'not-found', code: '-2013' });
  });

  it('an exchange refusal is rejected with its code as text', async () => {
    const price = (await priceNear(BTC, '0.9')).add('0.05');
    expect(failed(await port.placeOrder(limitBuy('port-bad-tick', BTC, price, 1)))).toMatchObject({ kind: 'rejected', code: '-1134', retryable: false });
  });

  it('a batch: legs fail on their own, a leg with TP/SL goes alone, results in command order; cancel-all', async () => {
    const price = await priceNear(BTC, '0.9');
    const withStops: PlaceOrderCommand = {
      ...limitBuy('port-b-tpsl', BTC, price.sub(2), 1),
      takeProfit: { triggerPrice: price.mul(2).toDecimalPlaces(1), triggerBy: 'CONTRACT_PRICE' },
      stopLoss: { triggerPrice: price.mul('0.5').toDecimalPlaces(1), triggerBy: 'MARK_PRICE', limitPrice: price.mul('0.49').toDecimalPlaces(1) },
    };
    const legs = ok(
      await port.placeOrders([limitBuy('port-b-1', BTC, price, 1), limitBuy('port-b-bad', BTC, price.add('0.05'), 1), withStops, limitBuy('port-b-3', BTC, price.sub(1), '0.3')]),
    );
    expect(legs.map((l) => (l.ok ? l.value.clientOrderId : l.error.code))).toEqual(['port-b-1', '-1134', 'port-b-tpsl', 'port-b-3']);
    expect(legs[1]).toMatchObject({ ok: false, error: { kind: 'rejected' } });
    const open = value(await trader.ordersV2.openOrders({ symbol: BTC })).map((o) => o.clientOrderId);
    expect(open.sort()).toEqual(['port-b-1', 'port-b-3', 'port-b-tpsl']);

    ok(await port.cancelAll({ type: 'cancel-all', symbol: BTC }));
    expect(value(await trader.ordersV2.openOrders({ symbol: BTC }))).toEqual([]);
    expect(failed(await port.placeOrders([]))).toMatchObject({ kind: 'invalid' });
  });

  it('a USDC contract is addressed in its own category', async () => {
    const price = await priceNear(BTC_USDC, '0.9');
    const placed = ok(await port.placeOrder(limitBuy('port-usdc-1', BTC_USDC, price, 1)));
    expect(placed.symbol).toBe(BTC_USDC);
    const account = ok(await port.fetchAccount([BTC_USDC]));
    expect(account.openOrders.map((o) => o.clientOrderId)).toEqual(['port-usdc-1']);
    expect(account.balances.map((b) => b.asset)).toEqual(['USDC']);
    expect(ok(await port.queryOrder(BTC_USDC, 'port-usdc-1'))?.orderId).toBe(placed.orderId);
    ok(await port.cancelOrder({ type: 'cancel-order', symbol: BTC_USDC, clientOrderId: 'port-usdc-1' }));
  });
});

describe('plan and TP/SL orders', () => {
  it('plan orders: STOP_MARKET and STOP, modify trigger and quantity, query, cancel', async () => {
    const trigger = await priceNear(BTC, '1.2');
    const plan: PlaceAlgoCommand = {
      type: 'place-algo',
      clientOrderId: 'port-plan-1',
      symbol: BTC,
      side: 'BUY',
      positionSide: 'LONG',
      orderType: 'MARKET',
      triggerPrice: trigger,
      triggerBy: 'MARK_PRICE',
      quantity: dec(1),
      timeInForce: 'GTC',
    };
    const placed = ok(await port.placeAlgo(plan));
    expect(placed).toMatchObject({ kind: 'PLAN', orderType: 'MARKET', triggerBy: 'MARK_PRICE', status: 'ORDER_NEW', clientOrderId: 'port-plan-1' });
    expect(placed.triggerPrice.eq(trigger)).toBe(true);
    expect(value(await trader.algo.getAlgoOrder({ origClientOrderId: 'port-plan-1' })).type).toBe('STOP_MARKET');

    const limitPlan = ok(await port.placeAlgo({ ...plan, clientOrderId: 'port-plan-2', orderType: 'LIMIT', price: trigger.add(5) }));
    expect(limitPlan).toMatchObject({ kind: 'PLAN', orderType: 'LIMIT' });
    expect(value(await trader.algo.getAlgoOrder({ origClientOrderId: 'port-plan-2' })).type).toBe('STOP');

    const moved = trigger.add(100);
    const modified = ok(await port.modifyAlgo({ type: 'modify-algo', symbol: BTC, clientOrderId: 'port-plan-1', kind: 'PLAN', triggerPrice: moved, quantity: dec(2) }));
    expect(modified.triggerPrice.eq(moved)).toBe(true);
    expect(modified.quantity.eq(2)).toBe(true);
    expect(ok(await port.queryAlgo(BTC, 'port-plan-1'))?.triggerPrice.eq(moved)).toBe(true);

    const account = ok(await port.fetchAccount([BTC]));
    expect(account.openAlgoOrders.map((o) => o.clientOrderId).sort()).toEqual(['port-plan-1', 'port-plan-2']);

    expect(ok(await port.cancelAlgo({ type: 'cancel-algo', symbol: BTC, clientOrderId: 'port-plan-1' })).status).toBe('ORDER_CANCELED');
    ok(await port.cancelAlgo({ type: 'cancel-algo', symbol: BTC, clientOrderId: 'port-plan-2' }));
    expect(value(await trader.algo.openAlgoOrders({ symbol: BTC }))).toEqual([]);
  });

  it('TP/SL rows of a filled order: listed by kind, moved, turned into a trailing stop through v1', async () => {
    const [book] = value(await trader.market.contractBookTicker(ETH));
    const ask = book?.askPrice ?? dec(0);
    const takeProfit = ask.mul('1.2').toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const stopLoss = ask.mul('0.8').toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const order = ok(
      await port.placeOrder({
        type: 'place-order',
        clientOrderId: 'port-tpsl-1',
        symbol: ETH,
        side: 'BUY',
        positionSide: 'LONG',
        orderType: 'MARKET',
        quantity: dec(4),
        timeInForce: 'IOC',
        takeProfit: { triggerPrice: takeProfit, triggerBy: 'CONTRACT_PRICE' },
        stopLoss: { triggerPrice: stopLoss, triggerBy: 'CONTRACT_PRICE' },
      }),
    );
    expect(order.type).toBe('MARKET');
    expect(ok(await port.queryOrder(ETH, 'port-tpsl-1'))?.status).toBe('FILLED');

    const account = ok(await port.fetchAccount([ETH]));
    const rows = account.openAlgoOrders.filter((o) => o.symbol === ETH);
    expect(rows.map((r) => r.kind).sort()).toEqual(['STOP_LOSS', 'TAKE_PROFIT']);
    const sl = rows.find((r) => r.kind === 'STOP_LOSS');
    expect(sl).toMatchObject({ side: 'SELL', positionSide: 'LONG', orderType: 'MARKET' });
    expect(sl?.triggerPrice.eq(stopLoss)).toBe(true);
    const long = account.positions.find((p) => p.symbol === ETH && p.positionSide === 'LONG');
    expect(long?.qty.eq(4)).toBe(true);
    expect(account.balances.map((b) => b.asset)).toEqual(['USDT']);
    expect(account.fetchedAt).toBe(s.clock.now());

    const lower = stopLoss.sub(1);
    const moved = ok(await port.modifyAlgo({ type: 'modify-algo', symbol: ETH, clientOrderId: sl?.clientOrderId ?? '', kind: 'STOP_LOSS', triggerPrice: lower }));
    expect(moved).toMatchObject({ kind: 'STOP_LOSS', clientOrderId: sl?.clientOrderId });
    expect(moved.triggerPrice.eq(lower)).toBe(true);

    const trailing = ok(
      await port.modifyAlgo({
        type: 'modify-algo',
        symbol: ETH,
        clientOrderId: sl?.clientOrderId ?? '',
        kind: 'STOP_LOSS',
        trailing: { callbackType: 'RATE', callbackValue: dec('0.01') },
      }),
    );
    expect(trailing).toMatchObject({ kind: 'STOP_LOSS', orderId: sl?.orderId, trailing: { callbackType: 'RATE' } });
    expect(trailing.trailing?.callbackValue.eq('0.01')).toBe(true);
    // The v2 row agrees: a trailing stop now.
    const queried = ok(await port.queryAlgo(ETH, sl?.clientOrderId ?? ''));
    expect(queried?.trailing).toMatchObject({ callbackType: 'RATE' });
    expect(value(await trader.algo.getAlgoOrder({ orderId: sl?.orderId ?? '' })).stopType).toBe('TRAILING_STOP');

    expect(failed(await port.modifyAlgo({ type: 'modify-algo', symbol: ETH, clientOrderId: 'x', kind: 'PLAN', trailing: { callbackType: 'RATE', callbackValue: dec('0.01') } }))).toMatchObject({
      kind: 'invalid',
    });
    value(await trader.algo.cancelAllAlgoOrders([ETH], 'STOP_PROFIT_LOSS'));
  });
});

describe('triggered rows and the orders they created', () => {
  it('a stop-loss fires: the TP/SL history names the order it created (on every page size), and that order is found by its id', async () => {
    const [book] = value(await trader.market.contractBookTicker(ETH));
    const ask = book?.askPrice ?? dec(0);
    const stopLoss = ask.mul('0.95').toDecimalPlaces(2, Decimal.ROUND_DOWN);
    ok(
      await port.placeOrder({
        type: 'place-order',
        clientOrderId: 'port-fired-1',
        symbol: ETH,
        side: 'BUY',
        positionSide: 'LONG',
        orderType: 'MARKET',
        quantity: dec(3),
        timeInForce: 'IOC',
        takeProfit: { triggerPrice: ask.mul('1.2').toDecimalPlaces(2, Decimal.ROUND_DOWN), triggerBy: 'CONTRACT_PRICE' },
        stopLoss: { triggerPrice: stopLoss, triggerBy: 'CONTRACT_PRICE' },
      }),
    );
    const open = ok(await port.fetchAccount([ETH])).openAlgoOrders.filter((o) => o.symbol === ETH);
    const sl = open.find((o) => o.kind === 'STOP_LOSS');
    // A trade prints through the stop (the contract price triggers it).
    s.sim.engine.applyMarketEvent({ type: 'trade', ts: s.clock.now(), symbol: ETH, id: 'port-fired-print', price: stopLoss.sub(1).toFixed(), qty: '1', buyerIsMaker: true });

    const page = ok(await port.fetchAlgoHistory(ETH, 'tpsl'));
    const fired = page.rows.find((r) => r.clientOrderId === sl?.clientOrderId);
    expect(fired).toMatchObject({ kind: 'STOP_LOSS', status: 'ORDER_FILLED' });
    const childId = fired?.executedOrderId ?? '';
    expect(childId).not.toBe('');
    const rows = value(await trader.algo.historyAlgoOrders({ symbol: ETH, stopCategory: 'STOP_PROFIT_LOSS', limit: 1000 }));
    expect(page.rows.map((r) => r.orderId)).toEqual(rows.map((r) => r.orderId));
    expect(page.next).toBeUndefined();
    expect(ok(await port.fetchAlgoHistory(ETH, 'plan')).rows.every((r) => r.kind === 'PLAN')).toBe(true);

    // One row a page: the cursor walks down to the last row.
    const paged = new VenueExchangePort({ client: trader, pageSize: 1 });
    const walked: string[] = [];
    let before: string | undefined;
    for (let n = 0; n < rows.length + 2; n++) {
      const one = ok(await paged.fetchAlgoHistory(ETH, 'tpsl', before));
      walked.push(...one.rows.map((r) => r.orderId));
      if (one.next === undefined) break;
      before = one.next;
    }
    expect(walked).toEqual(rows.map((r) => r.orderId));

    const child = ok(await port.queryOrderById(ETH, childId));
    expect(child).toMatchObject({ orderId: childId, symbol: ETH, side: 'SELL', positionSide: 'LONG', status: 'FILLED' });
    expect(child?.filledQty.eq(3)).toBe(true);
    expect(child?.clientOrderId).toBe(value(await trader.ordersV2.getOrder({ orderId: childId })).clientOrderId);
    expect(ok(await port.queryOrderById(ETH, '1'))).toBeUndefined();
  });
});

describe('fills', () => {
  it('every fill from a time, oldest first, whatever the page size', async () => {
    ok(await port.placeOrder({ type: 'place-order', clientOrderId: 'port-fills-1', symbol: ETH, side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', quantity: dec(3), timeInForce: 'IOC' }));
    ok(await port.placeOrder({ type: 'place-order', clientOrderId: 'port-fills-2', symbol: ETH, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', quantity: dec(2), timeInForce: 'IOC' }));
    const all = ok(await port.fetchFills(ETH, T0));
    const wire = value(await trader.ordersV2.userTrades({ symbol: ETH, limit: 1000 }));
    expect(all.map((f) => f.tradeId).sort()).toEqual(wire.map((t) => t.ticketId ?? t.id).sort());
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.every((f, i) => i === 0 || f.time >= (all[i - 1]?.time ?? 0))).toBe(true);
    const last = all[all.length - 1];
    expect(last).toMatchObject({ symbol: ETH, side: 'SELL', positionSide: 'LONG', clientOrderId: '', isMaker: false, feeAsset: 'USDT' });

    const paged = new VenueExchangePort({ client: trader, pageSize: 2 });
    expect(ok(await paged.fetchFills(ETH, T0)).map((f) => f.tradeId)).toEqual(all.map((f) => f.tradeId));
    expect(ok(await port.fetchFills(ETH, s.clock.now() + 1))).toEqual([]);
  });

  it('open orders over several pages', async () => {
    const price = await priceNear(ETH, '0.9');
    for (let n = 0; n < 5; n++) ok(await port.placeOrder(limitBuy(`port-page-${n}`, ETH, price.sub(n), 1)));
    const paged = new VenueExchangePort({ client: trader, pageSize: 2 });
    const account = ok(await paged.fetchAccount([ETH]));
    expect(account.openOrders.map((o) => o.clientOrderId).sort()).toEqual([0, 1, 2, 3, 4].map((n) => `port-page-${n}`));
    ok(await port.cancelAll({ type: 'cancel-all', symbol: ETH }));
  });
});

describe('faults', () => {
  afterEach(() => setFaults(s, { http5xxRate: 0 }));

  it('a 5xx on an order call is unknown (retryable); the order was not executed', async () => {
    const price = await priceNear(BTC, '0.9');
    await setFaults(s, { http5xxRate: 1 });
    const failure = failed(await port.placeOrder(limitBuy('port-5xx', BTC, price, 1)));
    expect(failure).toMatchObject({ kind: 'unknown', retryable: true });
    const read = failed(await port.queryOrder(BTC, 'port-5xx'));
    expect(read.kind).toBe('unknown');
    await setFaults(s, { http5xxRate: 0 });
    expect(ok(await port.queryOrder(BTC, 'port-5xx'))).toBeUndefined();
  });
});

describe('fetchAccount on a skewed exchange clock', () => {
  it('stamps the snapshot with exchange time, the clock stream events carry, not the local one', async () => {
    await setFaults(s, { clockSkewMs: 5_000 });
    try {
      const skewed = s.client('trader');
      const synced = await skewed.timeSync.sync();
      if (!synced.ok) throw new Error('time sync failed');
      const account = ok(await new VenueExchangePort({ client: skewed }).fetchAccount([BTC]));
      expect(account.fetchedAt).toBe(s.clock.now() + 5_000);
      for (const position of account.positions) expect(position.updateTime).toBe(account.fetchedAt);
    } finally {
      await setFaults(s, { clockSkewMs: 0 });
    }
  });

  it('when the exchange clock moved back since the last sync, stamps it on the offset the fetch re-synced to (-1021), not seconds in the future', async () => {
    await setFaults(s, { clockSkewMs: 3_000 });
    try {
      const skewed = s.client('trader');
      if (!(await skewed.timeSync.sync()).ok) throw new Error('time sync failed');
      expect(skewed.timeSync.offset).toBe(3_000);
      // The exchange's clock swings back 6 s (beyond the 5 s receive window): the fetch's first signed request is refused, the client re-syncs.
      await setFaults(s, { clockSkewMs: -3_000 });
      const account = ok(await new VenueExchangePort({ client: skewed }).fetchAccount([BTC]));
      expect(skewed.timeSync.offset).toBe(-3_000);
      expect(account.fetchedAt).toBe(s.clock.now() - 3_000);
      for (const position of account.positions) expect(position.updateTime).toBe(account.fetchedAt);
      for (const balance of account.balances) expect(balance.updateTime).toBe(account.fetchedAt);
    } finally {
      await setFaults(s, { clockSkewMs: 0 });
    }
  });
});

describe('fetchAccount lists the day of funding payments', () => {
  it('from the futures balance flow (type 32): the simulator settles funding on the held position', async () => {
    ok(await port.placeOrder({ type: 'place-order', clientOrderId: 'port-funding-1', symbol: ETH, side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', quantity: dec(5), timeInForce: 'IOC' }));
    // A funding event whose next time is past the pending one settles the pending rate now.
    s.sim.engine.applyMarketEvent({ type: 'funding', ts: s.clock.now(), symbol: ETH, rate: '0.0001', nextFundingTime: s.clock.now() + 30 * 86_400_000, period: '8H' });
    const flows = s.sim.engine.balanceFlows({ userId: '879141111', kind: 'FUNDING', limit: 10 }).filter((f) => f.symbol === ETH);
    expect(flows.length).toBeGreaterThan(0);
    const account = ok(await port.fetchAccount([ETH]));
    const funding = (account.funding ?? []).filter((f) => f.symbol === ETH);
    expect(funding.map((f) => [f.flowId, f.asset, f.amount.toFixed()])).toEqual(flows.reverse().map((f) => [f.id, 'USDT', dec(f.change).toFixed()]));
    expect(funding.every((f) => f.time <= account.fetchedAt && f.time > account.fetchedAt - 86_400_000)).toBe(true);
    ok(await port.placeOrder({ type: 'place-order', clientOrderId: 'port-funding-2', symbol: ETH, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', quantity: dec(5), timeInForce: 'IOC' }));
  });
});
