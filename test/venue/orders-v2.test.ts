import { dec } from '../../src/core/decimal.js';
import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import { clientFor, TEST_KEY, v2 } from '../support/client.js';
import { FixtureVenue, paramsOf } from '../support/fixture-venue.js';

// API-NOTES §5.9 (DOC-V2 example rows).
const ORDER_ROW = {
  time: '1668418485058', updateTime: '1668418485058', orderId: '1289182123551455488', clientOrderId: 'test1115', symbol: 'BTC-SWAP-USDT',
  price: '19000', leverage: '2', origQty: '10', executedQty: '0', avgPrice: '0', marginLocked: '9.5', type: 'LIMIT', side: 'BUY',
  positionSide: 'LONG', timeInForce: 'GTC', status: 'NEW', contractMultiplier: '0.001',
};
const TRADE_ROW = {
  time: '1668419000000', createdTime: '1668419000100', id: '9876543210', orderId: '1289182123551455488', matchOrderId: '1289182123551456000',
  matchAccountId: '10001', accountId: '122216245228131', symbol: 'BTC-SWAP-USDT', price: '19000', qty: '1', commissionAsset: 'USDT',
  commission: '0.01', makerRebate: '0', type: 'LIMIT', side: 'BUY', positionSide: 'LONG', realizedPnl: '0', ticketId: 't1', isMaker: true, matchOrderStrategy: 0,
};

let venue: FixtureVenue;
let client: ExchangeClient;

beforeAll(async () => {
  venue = await FixtureVenue.start();
  client = clientFor(venue);
});
afterAll(() => venue.close());
beforeEach(() => venue.clear());

describe('v2 orders', () => {
  it('places an order with a signed JSON body that matches the signed text byte for byte', async () => {
    venue.reply('POST /api/v2/futures/order', { body: v2(ORDER_ROW) });
    const result = await client.ordersV2.placeOrder({
      symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'test1115',
      quantity: dec(10), price: dec(19000), timeInForce: 'GTC', category: 'USDT',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.orderId).toBe('1289182123551455488');
    expect(result.value.price.equals(19000)).toBe(true);
    expect(result.value.status).toBe('NEW');
    const wire = venue.last();
    expect(wire.signature).toBe('valid');
    expect(wire.headers['x-bb-apikey']).toBe(TEST_KEY);
    expect(wire.headers['content-type']).toBe('application/json');
    expect(wire.rawBody).toBe('{"symbol":"BTC-SWAP-USDT","side":"BUY","positionSide":"LONG","type":"LIMIT","newClientOrderId":"test1115","quantity":"10","price":"19000","timeInForce":"GTC"}');
    expect(wire.signedText.endsWith(wire.rawBody)).toBe(true);
    expect(paramsOf(wire)).toMatchObject({ category: 'USDT', recvWindow: '5000' });
  });

  it('refuses a LIMIT order without price and an order without quantity, sending nothing', async () => {
    const noPrice = await client.ordersV2.placeOrder({ symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'a', quantity: dec(1) });
    expect(!noPrice.ok && noPrice.error.rule).toBe('limit-needs-price');
    const noQty = await client.ordersV2.placeOrder({ symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'MARKET', newClientOrderId: 'a' });
    expect(!noQty.ok && noQty.error.rule).toBe('quantity-required');
    expect(venue.requests).toHaveLength(0);
  });

  it('sends a batch as one JSON array, legs failing independently, each leg spending the order budget', async () => {
    venue.reply('POST /api/v2/futures/batch-orders', { body: v2([{ code: 200, order: ORDER_ROW }, { code: -2011, order: null }]) });
    const before = client.governor.snapshot().ordersUsed;
    const legs = [1, 2].map((i) => ({ symbol: 'BTC-SWAP-USDT', side: 'BUY' as const, positionSide: 'LONG' as const, type: 'LIMIT' as const, newClientOrderId: `b${i}`, quantity: dec(1), price: dec(19000) }));
    const result = await client.ordersV2.placeBatch(legs);
    expect(result.ok && result.value.map((l) => l.code)).toEqual([200, -2011]);
    expect(result.ok && result.value[1]?.order).toBeNull();
    expect(client.governor.snapshot().ordersUsed - before).toBe(2);
    expect(Array.isArray(venue.last().json)).toBe(true);
    expect(venue.last().signature).toBe('valid');
  });

  it('refuses a batch over 10 legs', async () => {
    const legs = Array.from({ length: 11 }, (_, i) => ({ symbol: 'X', side: 'BUY' as const, positionSide: 'LONG' as const, type: 'MARKET' as const, newClientOrderId: `c${i}`, quantity: dec(1) }));
    const result = await client.ordersV2.placeBatch(legs);
    expect(!result.ok && result.error.rule).toBe('batch-size');
  });

  it('modifies by client order id and rejects both ids together', async () => {
    venue.reply('POST /api/v2/futures/order/update', { body: v2({ ...ORDER_ROW, price: '19100' }) });
    const result = await client.ordersV2.modifyOrder({ origClientOrderId: 'test1115', price: dec(19100) });
    expect(result.ok && result.value.price.toString()).toBe('19100');
    expect(venue.last().json).toEqual({ origClientOrderId: 'test1115', price: '19100' });
    const both = await client.ordersV2.modifyOrder({ orderId: '1', origClientOrderId: 'x', price: dec(1) });
    expect(!both.ok && both.error.rule).toBe('order-id-exclusive');
  });

  it('cancels, gets, lists open and history orders with query parameters', async () => {
    venue.reply('DELETE /api/v2/futures/order', { body: v2({ ...ORDER_ROW, status: 'CANCELED', marginLocked: '0' }) });
    const canceled = await client.ordersV2.cancelOrder({ orderId: '1289182123551455488' });
    expect(canceled.ok && canceled.value.status).toBe('CANCELED');
    expect(paramsOf(venue.last())).toMatchObject({ orderId: '1289182123551455488' });
    expect(venue.last().signature).toBe('valid');

    venue.reply('GET /api/v2/futures/order', { body: v2(ORDER_ROW) });
    expect((await client.ordersV2.getOrder({ origClientOrderId: 'test1115' })).ok).toBe(true);

    venue.reply('GET /api/v2/futures/open-orders', { body: v2([ORDER_ROW]) });
    const open = await client.ordersV2.openOrders({ symbol: 'BTC-SWAP-USDT', limit: 50 });
    expect(open.ok && open.value).toHaveLength(1);
    expect(paramsOf(venue.last())).toMatchObject({ symbol: 'BTC-SWAP-USDT', limit: '50' });

    venue.reply('GET /api/v2/futures/history-orders', { body: v2([]) });
    expect((await client.ordersV2.historyOrders({ startTime: 1, endTime: 2 })).ok).toBe(true);
    expect(paramsOf(venue.last())).toMatchObject({ startTime: '1', endTime: '2' });

    const badLimit = await client.ordersV2.openOrders({ limit: 1001 });
    expect(!badLimit.ok && badLimit.error.rule).toBe('limit-range');
  });

  it('cancels all orders of several symbols (data null)', async () => {
    venue.reply('DELETE /api/v2/futures/batch-orders', { body: v2(null) });
    const result = await client.ordersV2.cancelAll(['BTC-SWAP-USDT', 'ETH-SWAP-USDT'], 'BUY');
    expect(result.ok).toBe(true);
    expect(paramsOf(venue.last())).toMatchObject({ symbol: 'BTC-SWAP-USDT,ETH-SWAP-USDT', side: 'BUY' });
  });

  it('reads user trades with decimals and string ids', async () => {
    venue.reply('GET /api/v2/futures/user-trades', { body: v2([TRADE_ROW]) });
    const result = await client.ordersV2.userTrades({ symbol: 'BTC-SWAP-USDT', limit: 10 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value[0]?.id).toBe('9876543210');
    expect(result.value[0]?.commission.toString()).toBe('0.01');
    expect(result.value[0]?.isMaker).toBe(true);
  });
});
