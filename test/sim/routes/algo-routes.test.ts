import { conditionalOrderV1ListSchema, conditionalOrderV1Schema, regularOrderV1Schema } from '../../../src/venue/parsers/order-v1.js';
import { orderV2ListSchema, orderV2Schema } from '../../../src/venue/parsers/order-v2.js';
import { nullData } from '../../../src/venue/wire/schema.js';
import { toAlgoSnapshot } from '../../../src/venue/port/order-mapping.js';
import { RouteHarness } from './harness.js';

const PLAN = { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: '101000', newClientOrderId: 'p1', quantity: '2' };

/** A filled long with a stop-loss attached: the engine creates the TP/SL row when the order fills. */
async function longWithStopLoss(h: RouteHarness): Promise<string> {
  await h.data('orderV2Create', { json: { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'MARKET', newClientOrderId: 'long', quantity: '4', stopLoss: '95000' } });
  const rows = await h.parsed('openAlgoOrders', orderV2ListSchema, { params: { stopCategory: 'STOP_PROFIT_LOSS' } });
  const row = rows[0];
  if (row === undefined) throw new Error('no TP/SL row');
  return row.orderId;
}

describe('plan and TP/SL routes over the engine', () => {
  let h: RouteHarness;
  beforeEach(() => {
    h = new RouteHarness();
  });

  it('v2 rows carry executedOrderId: "0" until the trigger, then the order it created; the client maps it', async () => {
    const created = await h.parsed('algoOrderCreate', orderV2Schema, { json: PLAN });
    expect((await h.data('algoOrderGet', { params: { orderId: created.orderId } })) as Record<string, unknown>).toMatchObject({ executedOrderId: '0' });
    h.market('BTC-SWAP-USDT', '101000');
    const fired = await h.parsed('algoOrderGet', orderV2Schema, { params: { orderId: created.orderId } });
    expect(fired.status).toBe('ORDER_FILLED');
    const orders = await h.parsed('historyOrdersV2', orderV2ListSchema, { params: { symbol: 'BTC-SWAP-USDT', startTime: '0' } });
    const child = orders.find((o) => o.orderId === fired.executedOrderId);
    expect(child).toMatchObject({ side: 'BUY', positionSide: 'LONG', status: 'FILLED' });
    const mapped = toAlgoSnapshot(fired);
    expect(mapped.ok ? mapped.value.executedOrderId : mapped.error).toBe(child?.orderId);
  });

  it('create, get, update, list and cancel a plan row', async () => {
    const created = await h.parsed('algoOrderCreate', orderV2Schema, { json: PLAN });
    expect(created).toMatchObject({ type: 'STOP_MARKET', status: 'ORDER_NEW', triggerBy: 'CONTRACT_PRICE' });
    expect(created.stopPrice?.toFixed()).toBe('101000');
    expect(await h.parsed('algoOrderGet', orderV2Schema, { params: { origClientOrderId: 'p1' } })).toMatchObject({ orderId: created.orderId });
    const updated = await h.parsed('algoOrderUpdate', orderV2Schema, { json: { type: 'STOP', orderId: created.orderId, stopPrice: '101200', triggerBy: 'MARK_PRICE' } });
    expect(updated.stopPrice?.toFixed()).toBe('101200');
    expect(updated.triggerBy).toBe('MARK_PRICE');
    expect(await h.code('algoOrderUpdate', { json: { type: 'STOP_PROFIT_LOSS', orderId: created.orderId, stopPrice: '101300' } })).toBe(-1116);
    // stopCategory omitted lists plan rows only.
    expect((await h.parsed('openAlgoOrders', orderV2ListSchema, {})).map((r) => r.orderId)).toEqual([created.orderId]);
    expect(await h.parsed('openAlgoOrders', orderV2ListSchema, { params: { stopCategory: 'STOP_PROFIT_LOSS' } })).toEqual([]);
    const canceled = await h.parsed('algoOrderCancel', orderV2Schema, { params: { orderId: created.orderId } });
    expect(canceled.status).toBe('ORDER_CANCELED');
    const history = await h.parsed('historyAlgoOrders', orderV2ListSchema, { params: { stopCategory: 'STOP' } });
    expect(history.map((r) => r.status)).toEqual(['ORDER_CANCELED']);
  });

  it('a plan row triggers into a regular order (executedOrderId)', async () => {
    const created = await h.parsed('algoOrderCreate', orderV2Schema, { json: PLAN });
    h.market('BTC-SWAP-USDT', '101100');
    const row = await h.parsed('orderV1Get', conditionalOrderV1Schema, { params: { orderId: created.orderId, type: 'STOP' } });
    expect(row.status).toBe('ORDER_FILLED');
    expect(row.executedOrderId).not.toBe('0');
    const order = await h.parsed('orderV1Get', regularOrderV1Schema, { params: { orderId: row.executedOrderId } });
    expect(order.side).toBe('BUY_OPEN');
  });

  it('TP/SL rows: v2 and v1 shapes, v1 update to trailing, v2 update of the stop price', async () => {
    const id = await longWithStopLoss(h);
    const v2 = await h.parsed('algoOrderGet', orderV2Schema, { params: { orderId: id } });
    expect(v2).toMatchObject({ type: 'STOP_PROFIT_LOSS_MARKET', side: 'SELL', positionSide: 'LONG', stopOrderType: 'STOP_LOSS', stopType: 'FIXED_STOP' });
    const v1 = await h.parsed('orderV1Get', conditionalOrderV1Schema, { params: { orderId: id, type: 'STOP' } });
    expect(v1).toMatchObject({ kind: 'tpsl', side: 'SELL_CLOSE', orderType: 'STOP_LONG_LOSS', triggerType: 0, fallType: 0 });
    const listed = await h.parsed('openOrdersV1', conditionalOrderV1ListSchema, { params: { type: 'STOP' } });
    expect(listed.map((r) => r.kind)).toEqual(['tpsl']);

    const trailing = await h.parsed('orderV1Update', conditionalOrderV1Schema, {
      params: { orderId: id, type: 'STOP_PROFIT_LOSS', stopPrice: '0', stopType: 'TRAILING_STOP', fallbackType: 'RATE', fallbackQuantity: '0.01', activePrice: '99000' },
    });
    expect(trailing).toMatchObject({ kind: 'tpsl', triggerType: 1, fallType: 1 });
    const trailingV2 = (await h.data('algoOrderGet', { params: { orderId: id } })) as Record<string, unknown>;
    expect(trailingV2).toMatchObject({ stopType: 'TRAILING_STOP', fallbackType: 'RATE', fallbackQuantity: '0.01' });
    expect(typeof trailingV2.activeStatus).toBe('number');
    expect(await h.code('orderV1Update', { params: { orderId: id, type: 'STOP_PROFIT_LOSS', stopPrice: '0' } })).toBe(-1130);
  });

  it('fixed TP/SL: v2 update moves the stop; v1 cancel answers the row before the cancel', async () => {
    const id = await longWithStopLoss(h);
    const moved = await h.parsed('algoOrderUpdate', orderV2Schema, { json: { type: 'STOP_PROFIT_LOSS', orderId: id, stopPrice: '94000' } });
    expect(moved.stopPrice?.toFixed()).toBe('94000');
    const canceled = await h.parsed('orderV1Cancel', conditionalOrderV1Schema, { params: { orderId: id, type: 'STOP' } });
    expect(canceled.status).toBe('ORDER_NEW');
    expect((await h.parsed('algoOrderGet', orderV2Schema, { params: { orderId: id } })).status).toBe('ORDER_CANCELED');
  });

  it('batch cancel of one family answers null; stopCategory is required', async () => {
    await h.data('algoOrderCreate', { json: PLAN });
    await longWithStopLoss(h);
    expect(await h.code('batchCancelAlgoOrders', { params: { symbol: 'BTC-SWAP-USDT' } })).toBe(-1102);
    expect(await h.code('batchCancelAlgoOrders', { params: { symbol: 'BTC-SWAP-USDT', stopCategory: 'PLAN' } })).toBe(-1130);
    expect(await h.parsed('batchCancelAlgoOrders', nullData, { params: { symbol: 'BTC-SWAP-USDT', stopCategory: 'STOP' } })).toBeNull();
    expect(await h.parsed('openAlgoOrders', orderV2ListSchema, {})).toEqual([]);
    expect(await h.parsed('openAlgoOrders', orderV2ListSchema, { params: { stopCategory: 'STOP_PROFIT_LOSS' } })).toHaveLength(1);
  });
});
