import { batchResultV2Schema, orderV2ListSchema, orderV2Schema, userTradesV2Schema } from '../../../src/venue/parsers/order-v2.js';
import { nullData } from '../../../src/venue/wire/schema.js';
import { RouteHarness } from './harness.js';

const LIMIT = { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'v2-a', quantity: '10', price: '99000' };

describe('v2 order routes over the engine', () => {
  let h: RouteHarness;
  beforeEach(() => {
    h = new RouteHarness();
  });

  it('create from a JSON body answers NEW; get by either id', async () => {
    const created = await h.parsed('orderV2Create', orderV2Schema, { json: { ...LIMIT, quantity: 10, price: 99000 } });
    expect(created).toMatchObject({ status: 'NEW', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', timeInForce: 'GTC' });
    expect(created.contractMultiplier?.toFixed()).toBe('0.001');
    const got = await h.parsed('orderV2Get', orderV2Schema, { params: { origClientOrderId: 'v2-a' } });
    expect(got.orderId).toBe(created.orderId);
    expect(await h.code('orderV2Get', { params: { orderId: created.orderId, origClientOrderId: 'v2-a' } })).toBe(-1128);
  });

  it('create accepts form parameters too', async () => {
    const created = await h.parsed('orderV2Create', orderV2Schema, { params: { ...LIMIT, timeInForce: 'POST_ONLY' } });
    expect(created.timeInForce).toBe('POST_ONLY');
  });

  it('update, cancel and history', async () => {
    const created = await h.parsed('orderV2Create', orderV2Schema, { json: LIMIT });
    const modified = await h.parsed('orderV2Update', orderV2Schema, { json: { orderId: created.orderId, price: '99200' } });
    expect(modified).toMatchObject({ status: 'NEW' });
    expect(modified.price.toFixed()).toBe('99200');
    expect(await h.code('orderV2Update', { json: { orderId: created.orderId, price: '99200' } })).toBe(-1130);
    const canceled = await h.parsed('orderV2Cancel', orderV2Schema, { params: { orderId: created.orderId } });
    expect(canceled.status).toBe('CANCELED');
    expect(canceled.marginLocked?.isZero()).toBe(true);
    const history = await h.parsed('historyOrdersV2', orderV2ListSchema, { params: { symbol: 'BTC-SWAP-USDT', startTime: '0' } });
    expect(history.map((o) => o.orderId)).toEqual([created.orderId]);
    expect(await h.code('orderV2Cancel', { params: { orderId: created.orderId } })).toBe(-1142);
  });

  it('batch legs: {code, order} with order null on a failed leg', async () => {
    const legs = [LIMIT, { ...LIMIT, newClientOrderId: 'v2-b', positionSide: 'BOTH' }, { ...LIMIT, newClientOrderId: 'v2-c', price: '1' }];
    const wire = (await h.data('batchOrdersV2', { json: legs })) as Record<string, unknown>[];
    expect(wire.map((leg) => [leg.code, leg.order === null])).toEqual([
      [200, false],
      [-1130, true],
      [wire[2]?.code, true],
    ]);
    expect(typeof wire[2]?.code === 'number' && wire[2].code < 0).toBe(true);
    const parsed = await h.parsed('batchOrdersV2', batchResultV2Schema, { json: [{ ...LIMIT, newClientOrderId: 'v2-d' }] });
    expect(parsed[0]?.order?.clientOrderId).toBe('v2-d');
  });

  it('batch cancel answers null and cancels one side only when asked', async () => {
    await h.data('orderV2Create', { json: LIMIT });
    await h.data('orderV2Create', { json: { ...LIMIT, side: 'SELL', positionSide: 'SHORT', newClientOrderId: 'v2-s', price: '101000' } });
    const reply = await h.parsed('batchCancelV2', nullData, { params: { symbol: 'BTC-SWAP-USDT,ETH-SWAP-USDT', side: 'BUY' } });
    expect(reply).toBeNull();
    const open = await h.parsed('openOrdersV2', orderV2ListSchema, {});
    expect(open.map((o) => o.clientOrderId)).toEqual(['v2-s']);
    expect(await h.code('batchCancelV2', { params: { symbol: 'BTC-SWAP-USDT,NOPE' } })).toBe(-1121);
    expect(await h.code('batchCancelV2', {})).toBe(-1102);
  });

  it('a market order fills; user trades parse with the client', async () => {
    const order = await h.parsed('orderV2Create', orderV2Schema, { json: { ...LIMIT, type: 'MARKET', price: undefined, quantity: '3' } });
    expect(order.status).toBe('FILLED');
    const trades = await h.parsed('userTradesV2', userTradesV2Schema, { params: { symbol: 'BTC-SWAP-USDT' } });
    expect(trades.length).toBeGreaterThan(0);
    expect(trades[0]).toMatchObject({ orderId: order.orderId, side: 'BUY', positionSide: 'LONG', isMaker: false });
    expect(await h.code('userTradesV2', {})).toBe(-1102);
  });

  it('list parameters: unknown symbol, limit range', async () => {
    expect(await h.code('openOrdersV2', { params: { symbol: 'NOPE' } })).toBe(-1121);
    expect(await h.code('historyOrdersV2', { params: { limit: '1001' } })).toBe(-1130);
    expect(await h.code('openOrdersV2', { params: { symbol: 'BTC-SWAP-USDC' } })).toBe(-1213);
    expect(await h.parsed('openOrdersV2', orderV2ListSchema, { params: { symbol: 'BTC-SWAP-USDC' }, category: 'USDC' })).toEqual([]);
  });
});
