import { dec } from '../../../src/core/decimal.js';
import type { Result } from '../../../src/core/result.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { AccountEvent } from '../../../src/model/account-events.js';
import type { PlaceOrderCommand } from '../../../src/model/commands.js';
import type { ExchangeFailure } from '../../../src/model/exchange-port.js';
import type { LatencyModel } from '../../../src/sim/port/port-latency.js';
import { SimExchangePort } from '../../../src/sim/port/exchange-port.js';
import { ACCOUNT, BTC, engine, mark, PARENT, standardBook, T0, trade } from '../engine/engine-support.js';

function setup(latency?: LatencyModel): { clock: VirtualClock; ex: ReturnType<typeof engine>['ex']; port: SimExchangePort; events: AccountEvent[] } {
  const clock = new VirtualClock(T0);
  const { ex } = engine();
  standardBook(ex);
  const port = new SimExchangePort({ engine: ex, userId: PARENT, time: clock, ...(latency === undefined ? {} : { latency }) });
  const events: AccountEvent[] = [];
  port.accountEvents$.subscribe((e) => events.push(e));
  return { clock, ex, port, events };
}

function place(clientOrderId: string, side: 'BUY' | 'SELL', price: string | undefined, quantity = '1'): PlaceOrderCommand {
  return {
    type: 'place-order',
    clientOrderId,
    symbol: BTC,
    side,
    positionSide: side === 'BUY' ? 'LONG' : 'SHORT',
    orderType: price === undefined ? 'MARKET' : 'LIMIT',
    ...(price === undefined ? {} : { price: dec(price) }),
    quantity: dec(quantity),
    timeInForce: 'GTC',
  };
}

function value<T>(result: Result<T, ExchangeFailure>): T {
  if (!result.ok) throw new Error(`${result.error.kind} ${result.error.code} ${result.error.message}`);
  return result.value;
}

function failure<T>(result: Result<T, ExchangeFailure>): ExchangeFailure {
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

describe('SimExchangePort: the ExchangePort over the in-process engine', () => {
  test('instruments are the engine contracts in contracts, with the exchangeInfo filters', async () => {
    const { port } = setup();
    const btc = value(await port.loadInstruments()).find((i) => i.symbol === BTC);
    expect(btc).toBeDefined();
    expect(btc?.category).toBe('USDT');
    expect(btc?.status).toBe('TRADING');
    expect(btc?.contractMultiplier.toFixed()).toBe('0.001');
    expect(btc?.tickSize.toFixed()).toBe('0.1');
    expect([btc?.qtyStep.toFixed(), btc?.minQty.toFixed(), btc?.maxQty.toFixed()]).toEqual(['0.1', '0.1', '4000000']);
    expect(btc?.maxLeverage.toFixed()).toBe('50');
    expect(btc?.limitBand?.buyUpRate.toFixed()).toBe('0.1');
    expect(btc?.maxOpenOrders).toBe(200);
  });

  test('place, query, cancel; refusals carry the exchange code, unknown ids are not-found', async () => {
    const { port } = setup();
    const placed = value(await port.placeOrder(place('a-1', 'BUY', '99000')));
    expect(placed).toMatchObject({ clientOrderId: 'a-1', status: 'NEW', type: 'LIMIT', side: 'BUY', positionSide: 'LONG' });
    expect(placed.price.toFixed()).toBe('99000');
    expect(value(await port.queryOrder(BTC, 'a-1'))?.orderId).toBe(placed.orderId);
    expect(value(await port.queryOrder(BTC, 'nobody'))).toBeUndefined();
    expect(value(await port.cancelOrder({ type: 'cancel-order', symbol: BTC, clientOrderId: 'a-1' })).status).toBe('CANCELED');
    expect(failure(await port.cancelOrder({ type: 'cancel-order', symbol: BTC, clientOrderId: 'a-1' }))).toMatchObject({ kind: 'rejected', code: '-1142' });
    expect(failure(await port.cancelOrder({ type: 'cancel-order', symbol: BTC, clientOrderId: 'nobody' }))).toMatchObject({ kind: 'not-found', code: '-2013' });
    expect(failure(await port.placeOrder(place('a-2', 'BUY', '99000.05')))).toMatchObject({ kind: 'rejected', code: '-1134', retryable: false });
    expect(failure(await port.placeOrder({ ...place('a-3', 'BUY', '1'), symbol: 'NOPE' }))).toMatchObject({ kind: 'rejected', code: '-1121' });
  });

  test('a batch answers each leg on its own', async () => {
    const { port } = setup();
    const legs = value(await port.placeOrders([place('b-1', 'BUY', '99000'), place('b-2', 'BUY', '99000.01')]));
    expect(legs.map((l) => l.ok)).toEqual([true, false]);
    expect(failure(await port.placeOrders([]))).toMatchObject({ kind: 'invalid' });
  });

  test('modify follows the v2 update rules: quantity is the new unfilled quantity, omitted values are kept', async () => {
    const { port } = setup();
    value(await port.placeOrder(place('m-1', 'BUY', '99000', '2')));
    const modified = value(await port.modifyOrder({ type: 'modify-order', symbol: BTC, clientOrderId: 'm-1', price: dec('98000') }));
    expect([modified.price.toFixed(), modified.quantity.toFixed(), modified.clientOrderId]).toEqual(['98000', '2', 'm-1']);
    expect(failure(await port.modifyOrder({ type: 'modify-order', symbol: BTC, clientOrderId: 'm-1', price: dec('98000') }))).toMatchObject({ kind: 'rejected', code: '-1130' });
  });

  test('plan orders: place, modify the trigger, query, cancel', async () => {
    const { port } = setup();
    const plan = value(
      await port.placeAlgo({ type: 'place-algo', clientOrderId: 'p-1', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', triggerPrice: dec('101000'), triggerBy: 'CONTRACT_PRICE', quantity: dec('1'), timeInForce: 'GTC' }),
    );
    expect(plan).toMatchObject({ clientOrderId: 'p-1', kind: 'PLAN', orderType: 'MARKET', status: 'ORDER_NEW' });
    const moved = value(await port.modifyAlgo({ type: 'modify-algo', symbol: BTC, clientOrderId: 'p-1', kind: 'PLAN', triggerPrice: dec('102000') }));
    expect(moved.triggerPrice.toFixed()).toBe('102000');
    expect(value(await port.queryAlgo(BTC, 'p-1'))?.status).toBe('ORDER_NEW');
    expect(value(await port.cancelAlgo({ type: 'cancel-algo', symbol: BTC, clientOrderId: 'p-1' })).status).toBe('ORDER_CANCELED');
    expect(value(await port.queryAlgo(BTC, 'nobody'))).toBeUndefined();
  });

  test('account events come out as stream events: order, fill (trade id = ticketId), position, balance', async () => {
    const { port, events, ex } = setup();
    value(await port.placeOrder(place('t-1', 'BUY', '100000', '1')));
    const types = events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['account.order', 'account.fill', 'account.position', 'account.balance']));
    expect(events.every((e) => e.source === 'stream')).toBe(true);
    const fill = events.find((e) => e.type === 'account.fill');
    const trades = ex.userTrades(ACCOUNT, { symbol: BTC, limit: 10 });
    expect(fill?.type === 'account.fill' && fill.fill.tradeId).toBe(trades[0]?.ticketId);
    const position = events.find((e) => e.type === 'account.position');
    expect(position?.type === 'account.position' && position.position.qty.toFixed()).toBe('1');
  });

  test('fetchAccount and fetchFills read the account at one moment; fills come oldest first', async () => {
    const { port, ex } = setup();
    value(await port.placeOrder(place('f-1', 'BUY', '100000', '1')));
    trade(ex, T0 + 1000, '100000', '1', false);
    mark(ex, T0 + 1000, '100000');
    value(await port.placeOrder(place('f-2', 'BUY', '99000', '1')));
    const account = value(await port.fetchAccount([BTC]));
    expect(account.openOrders.map((o) => o.clientOrderId)).toEqual(['f-2']);
    expect(account.positions.map((p) => [p.symbol, p.positionSide, p.qty.toFixed()])).toEqual([[BTC, 'LONG', '1']]);
    expect(account.balances.map((b) => b.asset)).toEqual(['USDT']);
    expect(account.fetchedAt).toBe(T0);
    const fills = value(await port.fetchFills(BTC, T0));
    expect(fills.length).toBeGreaterThan(0);
    expect(fills.map((f) => f.time)).toEqual([...fills.map((f) => f.time)].sort((a, b) => a - b));
    expect(value(await port.fetchFills(BTC, T0 + 1))).toEqual([]);
  });

  test('latency: the command reaches the engine after orderLatencyMs, the reply and events ackLatencyMs later', async () => {
    const { clock, ex, port, events } = setup({ orderLatencyMs: 50, ackLatencyMs: 20 });
    let answered = false;
    const reply = port.placeOrder(place('l-1', 'BUY', '99000')).then((r) => {
      answered = true;
      return r;
    });
    clock.advanceBy(49);
    await Promise.resolve();
    expect(ex.openOrders(ACCOUNT, { limit: 10 })).toHaveLength(0);
    clock.advanceBy(1);
    expect(ex.openOrders(ACCOUNT, { limit: 10 })).toHaveLength(1);
    expect(events).toHaveLength(0);
    clock.advanceBy(19);
    await Promise.resolve();
    expect(answered).toBe(false);
    clock.advanceBy(1);
    expect(value(await reply).clientOrderId).toBe('l-1');
    expect(events.some((e) => e.type === 'account.order')).toBe(true);
  });
});
