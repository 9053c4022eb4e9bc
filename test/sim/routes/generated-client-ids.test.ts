import { conditionalOrderV1Schema, regularOrderV1Schema } from '../../../src/venue/parsers/order-v1.js';
import { orderV2ListSchema, orderV2Schema } from '../../../src/venue/parsers/order-v2.js';
import { RouteHarness } from './harness.js';

/**
 * Document 000: `newClientOrderId` is "generated if omitted" on v1 order/update and "default generated"
 * on v2 order/update and algo-order/update; v1 ignores it for TP/SL rows. A sent one is used.
 */
const LIMIT = { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'own-1', quantity: '10', price: '99000' };
const PLAN = { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: '101000', newClientOrderId: 'plan-1', quantity: '2' };

describe('newClientOrderId on updates (document 000)', () => {
  let h: RouteHarness;
  beforeEach(() => {
    h = new RouteHarness();
  });

  it('v2 order/update without one gives the order a new, generated client id; the old one no longer finds it', async () => {
    const created = await h.parsed('orderV2Create', orderV2Schema, { json: LIMIT });
    const modified = await h.parsed('orderV2Update', orderV2Schema, { json: { orderId: created.orderId, price: '99100' } });
    expect(modified.orderId).toBe(created.orderId);
    expect(modified.clientOrderId).not.toBe('own-1');
    expect(modified.clientOrderId).toMatch(/^\d+$/);
    expect(await h.code('orderV2Get', { params: { origClientOrderId: modified.clientOrderId } })).toBe('ok');
    const open = await h.parsed('openOrdersV2', orderV2ListSchema, {});
    expect(open.map((o) => o.clientOrderId)).toEqual([modified.clientOrderId]);
  });

  it('v2 order/update with one uses it; repeating the current id keeps it', async () => {
    const created = await h.parsed('orderV2Create', orderV2Schema, { json: LIMIT });
    const same = await h.parsed('orderV2Update', orderV2Schema, { json: { orderId: created.orderId, price: '99100', newClientOrderId: 'own-1' } });
    expect(same.clientOrderId).toBe('own-1');
    const renamed = await h.parsed('orderV2Update', orderV2Schema, { json: { origClientOrderId: 'own-1', price: '99200', newClientOrderId: 'own-2' } });
    expect(renamed.clientOrderId).toBe('own-2');
  });

  it('v1 order/update of a LIMIT order without one generates one', async () => {
    const created = await h.parsed('orderV1Create', regularOrderV1Schema, { params: { symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', type: 'LIMIT', quantity: '10', price: '99000', newClientOrderId: 'v1-own' } });
    const modified = await h.parsed('orderV1Update', regularOrderV1Schema, { params: { orderId: created.orderId, type: 'LIMIT', price: '99100' } });
    expect(modified.clientOrderId).not.toBe('v1-own');
    expect(modified.clientOrderId).toMatch(/^\d+$/);
  });

  it('algo-order/update of a plan row without one generates one; with one uses it', async () => {
    const created = await h.parsed('algoOrderCreate', orderV2Schema, { json: PLAN });
    const generated = await h.parsed('algoOrderUpdate', orderV2Schema, { json: { type: 'STOP', orderId: created.orderId, stopPrice: '101200' } });
    expect(generated.clientOrderId).not.toBe('plan-1');
    expect(generated.clientOrderId).toMatch(/^\d+$/);
    const named = await h.parsed('algoOrderUpdate', orderV2Schema, { json: { type: 'STOP', orderId: created.orderId, stopPrice: '101300', newClientOrderId: 'plan-2' } });
    expect(named.clientOrderId).toBe('plan-2');
  });

  it('a v1 update of a TP/SL row keeps its system id whatever is sent', async () => {
    await h.data('orderV2Create', { json: { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'MARKET', newClientOrderId: 'long', quantity: '4', stopLoss: '95000' } });
    const [row] = await h.parsed('openAlgoOrders', orderV2ListSchema, { params: { stopCategory: 'STOP_PROFIT_LOSS' } });
    if (row === undefined) throw new Error('no TP/SL row');
    const v1 = await h.parsed('orderV1Update', conditionalOrderV1Schema, { params: { orderId: row.orderId, type: 'STOP_PROFIT_LOSS', stopPrice: '94000', newClientOrderId: 'ignored' } });
    expect(v1.clientOrderId).toBe(row.clientOrderId);
    const again = await h.parsed('orderV1Update', conditionalOrderV1Schema, { params: { orderId: row.orderId, type: 'STOP_PROFIT_LOSS', stopPrice: '93000' } });
    expect(again.clientOrderId).toBe(row.clientOrderId);
  });
});
