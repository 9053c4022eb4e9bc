import { batchResultV1Schema, conditionalOrderV1ListSchema, conditionalOrderV1Schema, regularOrderV1ListSchema, regularOrderV1Schema } from '../../../src/venue/parsers/order-v1.js';
import { orderV2Schema } from '../../../src/venue/parsers/order-v2.js';
import { RouteHarness } from './harness.js';

const LIMIT = { symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', type: 'LIMIT', quantity: '10', price: '99000', newClientOrderId: 'v1-a' };

describe('v1 order routes over the engine', () => {
  let h: RouteHarness;
  beforeEach(() => {
    h = new RouteHarness();
  });

  it('create answers PENDING_NEW with a padded multiplier; the client parses it', async () => {
    const wire = (await h.data('orderV1Create', { params: LIMIT })) as Record<string, unknown>;
    expect(wire).toMatchObject({ status: 'PENDING_NEW', side: 'BUY_OPEN', type: 'LIMIT', priceType: 'INPUT', contractMultiplier: '0.00100000', executeQty: '0', triggerType: '0' });
    const order = await h.parsed('orderV1Create', regularOrderV1Schema, { params: { ...LIMIT, newClientOrderId: 'v1-b' } });
    expect(order).toMatchObject({ kind: 'regular', clientOrderId: 'v1-b', status: 'PENDING_NEW' });
  });

  it('query answers NEW without contractMultiplier, by id or client id', async () => {
    const created = await h.parsed('orderV1Create', regularOrderV1Schema, { params: LIMIT });
    const byId = (await h.data('orderV1Get', { params: { orderId: created.orderId } })) as Record<string, unknown>;
    expect(byId).toMatchObject({ status: 'NEW', executedQty: '0', executeQty: '0' });
    expect(byId).not.toHaveProperty('contractMultiplier');
    const byClient = await h.parsed('orderV1Get', regularOrderV1Schema, { params: { origClientOrderId: 'v1-a', type: 'LIMIT' } });
    expect(byClient.orderId).toBe(created.orderId);
    expect(await h.code('orderV1Get', { params: { orderId: '1' } })).toBe(-2013);
    expect(await h.code('orderV1Get', {})).toBe(-1102);
  });

  it('a market order is type LIMIT, priceType MARKET, at its protective price, and fills', async () => {
    const order = await h.parsed('orderV1Create', regularOrderV1Schema, { params: { symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', type: 'LIMIT', priceType: 'MARKET', quantity: '5', newClientOrderId: 'm1' } });
    expect(order).toMatchObject({ type: 'LIMIT', priceType: 'MARKET', timeInForce: 'IOC' });
    expect(order.price.toFixed()).toBe('105000');
    const filled = await h.parsed('orderV1Get', regularOrderV1Schema, { params: { orderId: order.orderId } });
    expect(filled.status).toBe('FILLED');
    expect(filled.executedQty.toFixed()).toBe('5');
  });

  it('update applies the rules and answers the modified order', async () => {
    const created = await h.parsed('orderV1Create', regularOrderV1Schema, { params: LIMIT });
    const modified = await h.parsed('orderV1Update', regularOrderV1Schema, { params: { orderId: created.orderId, type: 'LIMIT', price: '99100', quantity: '0', newClientOrderId: 'v1-a' } });
    expect(modified.price.toFixed()).toBe('99100');
    expect(modified.origQty.toFixed()).toBe('10');
    // Rule 3: now identical.
    expect(await h.code('orderV1Update', { params: { orderId: created.orderId, type: 'LIMIT', price: '99100' } })).toBe(-1130);
    // The client id was repeated (omitted, a new one would be generated). Rule 8 with valueQuantity: 2973 USDT at 99100 × 0.001 = 30 contracts.
    const bigger = await h.parsed('orderV1Update', regularOrderV1Schema, { params: { origClientOrderId: 'v1-a', type: 'LIMIT', valueQuantity: '2973' } });
    expect(bigger.origQty.toFixed()).toBe('30');
    // The type must match: this id is not a plan row.
    expect(await h.code('orderV1Update', { params: { orderId: created.orderId, type: 'STOP', stopPrice: '1' } })).toBe(-2013);
  });

  it('cancel answers the snapshot from before the cancel; later queries show CANCELED', async () => {
    const created = await h.parsed('orderV1Create', regularOrderV1Schema, { params: LIMIT });
    const canceled = await h.parsed('orderV1Cancel', regularOrderV1Schema, { params: { orderId: created.orderId } });
    expect(canceled.status).toBe('NEW');
    const after = await h.parsed('orderV2Get', orderV2Schema, { params: { orderId: created.orderId } });
    expect(after.status).toBe('CANCELED');
    expect(await h.code('orderV1Cancel', { params: { orderId: created.orderId } })).toBe(-1142);
    expect(await h.code('orderV1Cancel', { params: { orderId: '999' } })).toBe(-2013);
  });

  it('cancel reads clientOrderId and orderType as aliases (agent-kit)', async () => {
    await h.data('orderV1Create', { params: LIMIT });
    const canceled = await h.parsed('orderV1Cancel', regularOrderV1Schema, { params: { clientOrderId: 'v1-a', orderType: 'LIMIT', symbol: 'BTC-SWAP-USDT' } });
    expect(canceled.clientOrderId).toBe('v1-a');
  });

  it('open orders: newest first, cursor below an id, limit', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await h.parsed('orderV1Create', regularOrderV1Schema, { params: { ...LIMIT, newClientOrderId: `o${n}` } })).orderId);
    const all = await h.parsed('openOrdersV1', regularOrderV1ListSchema, { params: { symbol: 'BTC-SWAP-USDT' } });
    expect(all.map((o) => o.orderId)).toEqual([...ids].reverse());
    const below = await h.parsed('openOrdersV1', regularOrderV1ListSchema, { params: { orderId: ids[2] ?? '', limit: '1' } });
    expect(below.map((o) => o.orderId)).toEqual([ids[1]]);
    expect(await h.code('openOrdersV1', { params: { limit: '0' } })).toBe(-1130);
  });

  it('type STOP creates, queries, lists and cancels plan rows', async () => {
    const plan = await h.parsed('orderV1Create', regularOrderV1Schema, { params: { ...LIMIT, type: 'STOP', priceType: 'MARKET', stopPrice: '101000', newClientOrderId: 'st1' } });
    expect(plan).toMatchObject({ type: 'STOP', status: 'ORDER_NEW' });
    const row = await h.parsed('orderV1Get', conditionalOrderV1Schema, { params: { orderId: plan.orderId, type: 'STOP' } });
    expect(row).toMatchObject({ kind: 'stop', orderType: 'STOP_COMMON', priceType: 'MARKET', triggerType: 0 });
    expect(row.stopPrice.toFixed()).toBe('101000');
    const open = await h.parsed('openOrdersV1', conditionalOrderV1ListSchema, { params: { type: 'STOP' } });
    expect(open.map((o) => o.orderId)).toEqual([plan.orderId]);
    const moved = await h.parsed('orderV1Update', conditionalOrderV1Schema, { params: { orderId: plan.orderId, type: 'STOP', stopPrice: '101500' } });
    expect(moved.stopPrice.toFixed()).toBe('101500');
    const canceled = await h.parsed('orderV1Cancel', conditionalOrderV1Schema, { params: { orderId: plan.orderId, type: 'STOP' } });
    expect(canceled.status).toBe('ORDER_NEW');
    expect(await h.parsed('openOrdersV1', conditionalOrderV1ListSchema, { params: { type: 'STOP' } })).toEqual([]);
  });

  it('batch legs succeed or fail independently and omit contractMultiplier', async () => {
    const legs = [
      { ...LIMIT, newClientOrderId: 'b1' },
      { ...LIMIT, side: 'BUY', newClientOrderId: 'b2' },
      { ...LIMIT, newClientOrderId: 'b3', price: 98000 },
    ];
    const wire = (await h.data('batchOrdersV1', { json: legs })) as { code: number; result: Record<string, unknown>[] };
    expect(wire.code).toBe(200);
    expect(wire.result.map((leg) => leg.code)).toEqual([200, -1117, 200]);
    expect(wire.result[1]).toEqual({ code: -1117, msg: 'Invalid side.' });
    expect(wire.result[0]?.order).not.toHaveProperty('contractMultiplier');
    const parsed = await h.parsed('batchOrdersV1', batchResultV1Schema, { json: [{ ...LIMIT, newClientOrderId: 'b4' }] });
    expect(parsed[0]).toMatchObject({ ok: true, order: { clientOrderId: 'b4' } });
  });

  it('batch refusals of the whole request', async () => {
    expect(await h.code('batchOrdersV1', { json: [LIMIT, { ...LIMIT, symbol: 'ETH-SWAP-USDT' }] })).toBe(-1130);
    expect(await h.code('batchOrdersV1', { json: Array.from({ length: 11 }, (_, i) => ({ ...LIMIT, newClientOrderId: `x${i}` })) })).toBe(-1130);
    expect(await h.code('batchOrdersV1', { json: [] })).toBe(-1102);
    const legs = (await h.data('batchOrdersV1', { json: [{ ...LIMIT, symbol: undefined }, LIMIT] })) as { result: { code: number }[] };
    expect(legs.result.map((leg) => leg.code)).toEqual([-1102, 200]);
    expect(await h.code('batchOrdersV1', { json: { orders: [] } })).toBe(-1130);
    expect(h.route('batchOrdersV1').ordersOf?.({ json: [LIMIT, LIMIT, LIMIT] })).toBe(3);
  });
});
