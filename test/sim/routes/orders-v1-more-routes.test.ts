import { HISTORY_V1_WINDOW_MS } from '../../../src/sim/routes/orders/v1-more-routes.js';
import { regularOrderV1ListSchema, regularOrderV1Schema } from '../../../src/venue/parsers/order-v1.js';
import { cancelByIdsSchema } from '../../../src/venue/parsers/order-v1-more.js';
import { RouteHarness } from './harness.js';

const LIMIT = { symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', type: 'LIMIT', quantity: '10', price: '99000' };

describe('v1 history and cancel routes over the engine', () => {
  let h: RouteHarness;
  beforeEach(() => {
    h = new RouteHarness();
  });

  it('historyOrders looks three days back without startTime; an explicit startTime reaches further', async () => {
    const placed = await h.parsed('orderV1Create', regularOrderV1Schema, { params: { ...LIMIT, newClientOrderId: 'old' } });
    await h.data('orderV1Cancel', { params: { orderId: placed.orderId } });
    const listed = async (params: Record<string, string>): Promise<string[]> => (await h.parsed('historyOrdersV1', regularOrderV1ListSchema, { params })).map((o) => o.orderId);
    expect(await listed({})).toEqual([placed.orderId]);

    h.exchange.advanceTo(placed.time + HISTORY_V1_WINDOW_MS + 1);
    expect(await listed({})).toEqual([]);
    expect(await listed({ startTime: String(placed.time) })).toEqual([placed.orderId]);
  });

  it('cancelOrderByIds refuses more than 100 ids and ids that are not numbers', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => String(i + 1)).join(',');
    expect(await h.code('cancelOrderByIds', { params: { ids } })).toBe(-1130);
    expect(await h.code('cancelOrderByIds', { params: { ids: '12,abc' } })).toBe(-1130);
    expect(await h.code('cancelOrderByIds', {})).toBe(-1102);
    expect(await h.parsed('cancelOrderByIds', cancelByIdsSchema, { params: { ids: '5' } })).toEqual([{ orderId: '5', code: -2013 }]);
  });

  it('batchOrders DELETE without a symbol cancels every contract of the category', async () => {
    await h.data('orderV1Create', { params: { ...LIMIT, newClientOrderId: 'b1' } });
    await h.data('orderV1Create', { params: { symbol: 'ETH-SWAP-USDT', side: 'BUY_OPEN', type: 'LIMIT', quantity: '10', price: '3900', newClientOrderId: 'e1' } });
    expect(await h.data('batchCancelV1', {})).toMatchObject({ code: '200', message: 'success' });
    expect(await h.data('openOrdersV1', {})).toEqual([]);
    expect(await h.code('batchCancelV1', { params: { side: 'LONG' } })).toBe(-1117);
  });
});
