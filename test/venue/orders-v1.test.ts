import { dec } from '../../src/core/decimal.js';
import type { UpdateOrderV1 } from '../../src/venue/api/orders/v1-types.js';
import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import { outcomeOf } from '../support/skipped-rows.js';
import { clientFor, TEST_KEY } from '../support/client.js';
import { FixtureVenue, paramsOf } from '../support/fixture-venue.js';

// API-NOTES §5.7: live limit create (PENDING_NEW, padded contractMultiplier, string "0" ints).
const CREATE_ROW = {
  time: '1757620013810', updateTime: '1757620013810', orderId: '2037458781311385600', clientOrderId: '8d3c44d8-aad9-4fd6-b7f7-2ccf01aa0c4f',
  symbol: 'ETH-SWAP-USDT', price: '7234', leverage: '31', origQty: '1', executedQty: '0', executeQty: '0', avgPrice: '0', marginLocked: '2.33',
  type: 'LIMIT', side: 'SELL_OPEN', timeInForce: 'GTC', status: 'PENDING_NEW', priceType: 'INPUT', contractMultiplier: '0.01000000',
  triggerType: '0', fallType: '0', activeStatus: '0',
};
// API-NOTES §4.4: open-orders row.
const OPEN_ROW = {
  time: '1757619567362', updateTime: '1757619567374', orderId: '2037455036208935936', clientOrderId: '1757619566864', symbol: 'ETH-SWAP-USDT',
  price: '4024.68', leverage: '31', origQty: '7', executedQty: '0', executeQty: '0', avgPrice: '0', marginLocked: '9.08', type: 'LIMIT',
  side: 'BUY_OPEN', timeInForce: 'GTC', status: 'NEW', priceType: 'INPUT', triggerType: '0', fallType: '0', activeStatus: '0',
};
// API-NOTES §4.7: the pre-cancel snapshot.
const CANCEL_ROW = {
  time: '1668418485058', updateTime: '1668418485058', orderId: '1289182123551455488', clientOrderId: 'test1115', symbol: 'BTC-SWAP-USDT',
  price: '19000', leverage: '2', origQty: '10', executedQty: '0', avgPrice: '0', marginLocked: '9.5', type: 'LIMIT', side: 'BUY_OPEN',
  timeInForce: 'GTC', status: 'NEW', priceType: 'INPUT',
};
// Spec "Order, v1 stop" / "v1 take-profit/stop-loss" field lists (API-NOTES §5.8: no captured payload; ints as strings or numbers).
const STOP_ROW = {
  time: '1767952799216', orderId: '2124136467689134848', accountId: '122216245228131', clientOrderId: 'stop-1', symbol: 'BTC-SWAP-USDT',
  leverage: '20', origQty: '2', price: '0', executedOrderId: '0', type: 'STOP', side: 'BUY_OPEN', status: 'ORDER_NEW', priceType: 'MARKET',
  stopPrice: '95000', triggerBy: 'CONTRACT_PRICE', triggerType: '0', orderType: 'STOP_COMMON',
};
const TPSL_ROW = {
  ...STOP_ROW, orderId: '2124136467689135002', clientOrderId: '1767952804000', type: 'STOP_PROFIT_LOSS', side: 'SELL_CLOSE', stopPrice: '0',
  triggerType: 1, orderType: 'STOP_LONG_LOSS', activePrice: '95000', fallType: 1, fallQuantity: '0.01', activeStatus: '0',
};
// API-NOTES §5.7: batch legs omit contractMultiplier and may show leverage "0".
const LEG_ROW = { ...CREATE_ROW, clientOrderId: 'b0', leverage: '0', marginLocked: '0', contractMultiplier: undefined, executeQty: undefined };

const AUTH = [['recvWindow', '5000'], ['timestamp', expect.stringMatching(/^\d{13}$/)]];

let venue: FixtureVenue;
let client: ExchangeClient;

beforeAll(async () => {
  venue = await FixtureVenue.start();
  client = clientFor(venue);
});
afterAll(() => venue.close());
beforeEach(() => venue.clear());

describe('v1 create', () => {
  it('accepts a fractional contract quantity (BTC steps are 0.1 contract, API-NOTES §6.2)', async () => {
    venue.reply('POST /api/v1/futures/order', { body: { ...CREATE_ROW, origQty: '0.1' } });
    const result = await client.ordersV1.orderV1Create({ symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', type: 'LIMIT', quantity: dec('0.1'), price: dec(19000), newClientOrderId: 'frac-1' });
    expect(result.ok && result.value.origQty.toString()).toBe('0.1');
    expect(new URLSearchParams(venue.last().rawBody).get('quantity')).toBe('0.1');
  });

  it('sends a signed form in spec order and accepts a PENDING_NEW answer', async () => {
    venue.reply('POST /api/v1/futures/order', { body: CREATE_ROW });
    const result = await client.ordersV1.orderV1Create({
      symbol: 'ETH-SWAP-USDT', side: 'SELL_OPEN', type: 'LIMIT', quantity: dec(1), price: dec(7234), priceType: 'INPUT', timeInForce: 'GTC',
      newClientOrderId: '8d3c44d8-aad9-4fd6-b7f7-2ccf01aa0c4f',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const order = result.value;
    expect(order.kind).toBe('regular');
    expect(order.status).toBe('PENDING_NEW');
    expect(order.orderId).toBe('2037458781311385600');
    expect(order.price.equals(7234)).toBe(true);
    expect(order.marginLocked?.toString()).toBe('2.33');
    expect(order.contractMultiplier?.toString()).toBe('0.01');
    expect(order.executedQty.isZero()).toBe(true);
    expect(order.triggerType).toBe(0);
    expect(order.fallType).toBe(0);
    expect('executeQty' in order).toBe(false);
    const wire = venue.last();
    expect(wire.method).toBe('POST');
    expect(wire.path).toBe('/api/v1/futures/order');
    expect(wire.signature).toBe('valid');
    expect(wire.headers['x-bb-apikey']).toBe(TEST_KEY);
    expect(wire.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(wire.rawQuery).toBe('');
    expect(wire.params).toEqual([
      ['symbol', 'ETH-SWAP-USDT'], ['side', 'SELL_OPEN'], ['type', 'LIMIT'], ['quantity', '1'], ['price', '7234'], ['priceType', 'INPUT'],
      ['timeInForce', 'GTC'], ['newClientOrderId', '8d3c44d8-aad9-4fd6-b7f7-2ccf01aa0c4f'], ...AUTH,
    ]);
  });

  it('sends a market order as LIMIT + priceType MARKET without price', async () => {
    venue.reply('POST /api/v1/futures/order', { body: { ...CREATE_ROW, price: '4435.59', timeInForce: 'IOC', priceType: 'MARKET' } });
    const result = await client.ordersV1.orderV1Create({ symbol: 'ETH-SWAP-USDT', side: 'BUY_OPEN', type: 'LIMIT', priceType: 'MARKET', quantity: dec(2), newClientOrderId: 'm1', category: 'USDT' });
    expect(result.ok && result.value.priceType).toBe('MARKET');
    expect(venue.last().params).toEqual([
      ['symbol', 'ETH-SWAP-USDT'], ['side', 'BUY_OPEN'], ['type', 'LIMIT'], ['quantity', '2'], ['priceType', 'MARKET'], ['newClientOrderId', 'm1'], ['category', 'USDT'], ...AUTH,
    ]);
  });

  it('sends a STOP order with stopPrice and attached TP/SL fields', async () => {
    venue.reply('POST /api/v1/futures/order', { body: { ...CREATE_ROW, type: 'STOP' } });
    const result = await client.ordersV1.orderV1Create({
      symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', type: 'STOP', quantity: dec(3), price: dec(96000), stopPrice: dec(95000), newClientOrderId: 's1',
      takeProfit: dec(99000), tpTriggerBy: 'MARK_PRICE', tpOrderType: 'LIMIT', tpLimitPrice: dec(98900), stopLoss: dec('90000.5'), slOrderType: 'MARKET',
    });
    expect(result.ok).toBe(true);
    expect(venue.last().signature).toBe('valid');
    expect(venue.last().params).toEqual([
      ['symbol', 'BTC-SWAP-USDT'], ['side', 'BUY_OPEN'], ['type', 'STOP'], ['quantity', '3'], ['price', '96000'], ['stopPrice', '95000'], ['newClientOrderId', 's1'],
      ['takeProfit', '99000'], ['tpTriggerBy', 'MARK_PRICE'], ['tpLimitPrice', '98900'], ['tpOrderType', 'LIMIT'], ['stopLoss', '90000.5'], ['slOrderType', 'MARKET'], ...AUTH,
    ]);
  });

  it('refuses orders breaking the create rules, sending nothing', async () => {
    const base = { symbol: 'ETH-SWAP-USDT', side: 'BUY_OPEN' as const, type: 'LIMIT' as const, quantity: dec(1), price: dec(1), newClientOrderId: 'a' };
    const cases: Array<[Parameters<ExchangeClient['ordersV1']['orderV1Create']>[0], string, string]> = [
      [{ ...base, newClientOrderId: ' ' }, 'mandatory-parameter', 'newClientOrderId'],
      [{ ...base, symbol: '' }, 'mandatory-parameter', 'symbol'],
      [{ ...base, quantity: dec('-1.5') }, 'quantity-positive', 'quantity'],
      [{ ...base, quantity: dec(0) }, 'quantity-positive', 'quantity'],
      [{ ...base, valueQuantity: dec(-1) }, 'valueQuantity-not-negative', 'valueQuantity'],
      [{ symbol: 'X', side: 'BUY_OPEN', type: 'LIMIT', quantity: dec(1), newClientOrderId: 'a' }, 'limit-needs-price', 'price'],
      [{ symbol: 'X', side: 'BUY_OPEN', type: 'LIMIT', priceType: 'INPUT', quantity: dec(1), newClientOrderId: 'a' }, 'limit-needs-price', 'price'],
      [{ ...base, type: 'STOP' }, 'stop-needs-stopPrice', 'stopPrice'],
      [{ ...base, type: 'STOP', stopPrice: dec(5), timeInForce: 'GTC' }, 'time-in-force-limit-only', 'timeInForce'],
      [{ ...base, price: dec(-1) }, 'price-positive', 'price'],
      [{ ...base, takeProfit: dec(0) }, 'takeProfit-positive', 'takeProfit'],
    ];
    for (const [order, rule, field] of cases) {
      const result = await client.ordersV1.orderV1Create(order);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect({ kind: result.error.kind, rule: result.error.rule, field: result.error.field }).toEqual({ kind: 'invalid-request', rule, field });
    }
    expect(venue.requests).toHaveLength(0);
  });
});

describe('v1 batchOrders', () => {
  const leg = (i: number, symbol = 'ETH-SWAP-USDT') =>
    ({ symbol, side: 'SELL_OPEN', type: 'LIMIT', quantity: dec(1), price: dec(7234), timeInForce: 'GTC', newClientOrderId: `b${i}` }) as const;

  it('posts a JSON array signed over the query only, a failed leg next to a good one', async () => {
    venue.reply('POST /api/v1/futures/batchOrders', { body: { code: '200', result: [{ code: 200, order: LEG_ROW }, { code: -1131, msg: 'Balance insufficient ' }] } });
    const before = client.governor.snapshot().ordersUsed;
    const result = await client.ordersV1.batchOrdersV1([leg(0), leg(1)], 'USDT');
    expect(client.governor.snapshot().ordersUsed - before).toBe(2);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [good, bad] = result.value;
    expect(good?.ok && good.order.leverage?.isZero()).toBe(true);
    expect(good?.ok && good.order.contractMultiplier).toBe(undefined);
    expect(good?.ok && 'contractMultiplier' in good.order).toBe(false);
    expect(bad).toEqual({ ok: false, code: -1131, msg: 'Balance insufficient ' });

    const wire = venue.last();
    expect(wire.method).toBe('POST');
    expect(wire.path).toBe('/api/v1/futures/batchOrders');
    expect(wire.headers['content-type']).toBe('application/json');
    expect(wire.rawBody).toBe(
      '[{"symbol":"ETH-SWAP-USDT","side":"SELL_OPEN","type":"LIMIT","quantity":"1","price":"7234","timeInForce":"GTC","newClientOrderId":"b0"},' +
        '{"symbol":"ETH-SWAP-USDT","side":"SELL_OPEN","type":"LIMIT","quantity":"1","price":"7234","timeInForce":"GTC","newClientOrderId":"b1"}]',
    );
    expect(wire.params).toEqual([['category', 'USDT'], ...AUTH]);
    // API-NOTES §1.2 RULE: HMAC over the raw query (signature pair removed), body unsigned.
    expect(venue.last().signature).toBe('valid');
    expect(wire.signedText).toBe(wire.rawQuery.replace(/&signature=[0-9a-f]{64}$/, ''));
  });

  it('refuses empty, oversized and mixed-symbol batches and bad legs, sending nothing', async () => {
    const empty = await client.ordersV1.batchOrdersV1([]);
    expect(!empty.ok && empty.error.rule).toBe('batch-size');
    const big = await client.ordersV1.batchOrdersV1(Array.from({ length: 11 }, (_, i) => leg(i)));
    expect(!big.ok && big.error.rule).toBe('batch-size');
    const mixed = await client.ordersV1.batchOrdersV1([leg(0), leg(1, 'BTC-SWAP-USDT')]);
    expect(!mixed.ok && [mixed.error.rule, mixed.error.field]).toEqual(['batch-one-symbol', '[1].symbol']);
    const noPrice = await client.ordersV1.batchOrdersV1([leg(0), { ...leg(1), price: undefined as never }]);
    expect(!noPrice.ok && [noPrice.error.rule, noPrice.error.field]).toEqual(['limit-needs-price', '[1].price']);
    const badQty = await client.ordersV1.batchOrdersV1([{ ...leg(0), quantity: dec('0') }]);
    expect(!badQty.ok && [badQty.error.rule, badQty.error.field]).toEqual(['quantity-positive', '[0].quantity']);
    expect(venue.requests).toHaveLength(0);
  });

  it('reports a successful leg without its order as malformed', async () => {
    venue.reply('POST /api/v1/futures/batchOrders', { body: { code: 200, result: [{ code: 200 }] } });
    const result = await client.ordersV1.batchOrdersV1([leg(0)]);
    expect(!result.ok && [result.error.kind, result.error.field]).toEqual(['malformed-response', 'result[0].order']);
  });
});

describe('v1 query, open orders, cancel', () => {
  it('gets a regular order; executeQty stands in for executedQty; both ids are sent', async () => {
    const { executedQty: _dropped, ...row } = CREATE_ROW;
    venue.reply('GET /api/v1/futures/order', { body: { ...row, executeQty: '0.5', contractMultiplier: undefined } });
    const result = await client.ordersV1.orderV1Get({ orderId: '2037458781311385600', origClientOrderId: 'x', type: 'LIMIT' });
    expect(result.ok && result.value.executedQty.toString()).toBe('0.5');
    const wire = venue.last();
    expect([wire.method, wire.path, wire.signature]).toEqual(['GET', '/api/v1/futures/order', 'valid']);
    expect(wire.params).toEqual([['orderId', '2037458781311385600'], ['origClientOrderId', 'x'], ['type', 'LIMIT'], ...AUTH]);
  });

  it('gets stop and TP/SL orders with type STOP as a union discriminated by kind', async () => {
    venue.reply('GET /api/v1/futures/order', { body: STOP_ROW }).reply('GET /api/v1/futures/order', { body: TPSL_ROW });
    const stop = await client.ordersV1.orderV1Get({ origClientOrderId: 'stop-1', type: 'STOP' });
    expect(stop.ok).toBe(true);
    if (stop.ok && stop.value.kind === 'stop') {
      expect(stop.value.stopPrice.toString()).toBe('95000');
      expect(stop.value.triggerType).toBe(0);
      expect(stop.value.orderType).toBe('STOP_COMMON');
      expect(stop.value.executedOrderId).toBe('0');
    } else throw new Error('expected a stop order');
    expect(paramsOf(venue.last())).toMatchObject({ origClientOrderId: 'stop-1', type: 'STOP' });

    const tpsl = await client.ordersV1.orderV1Get({ orderId: '2124136467689135002', type: 'STOP' });
    if (!tpsl.ok || tpsl.value.kind !== 'tpsl') throw new Error('expected a TP/SL order');
    expect([tpsl.value.triggerType, tpsl.value.fallType, tpsl.value.activeStatus]).toEqual([1, 1, 0]);
    expect(tpsl.value.fallQuantity.toString()).toBe('0.01');
    expect(tpsl.value.orderType).toBe('STOP_LONG_LOSS');
  });

  it('needs one id and an integer orderId, sending nothing', async () => {
    const none = await client.ordersV1.orderV1Get({});
    expect(!none.ok && none.error.rule).toBe('order-id-required');
    const bad = await client.ordersV1.orderV1Cancel({ orderId: 'abc' });
    expect(!bad.ok && bad.error.rule).toBe('order-id-format');
    expect(venue.requests).toHaveLength(0);
  });

  it('lists open orders with a cursor and checks the limit', async () => {
    venue.reply('GET /api/v1/futures/openOrders', { body: [OPEN_ROW] });
    const open = await client.ordersV1.openOrdersV1({ symbol: 'ETH-SWAP-USDT', orderId: '2037455036208935999', limit: 1000 });
    expect(open.ok && open.value[0]?.price.toString()).toBe('4024.68');
    expect(open.ok && open.value[0]?.activeStatus).toBe(0);
    const wire = venue.last();
    expect([wire.method, wire.path, wire.signature]).toEqual(['GET', '/api/v1/futures/openOrders', 'valid']);
    expect(wire.params).toEqual([['symbol', 'ETH-SWAP-USDT'], ['orderId', '2037455036208935999'], ['limit', '1000'], ...AUTH]);

    venue.reply('GET /api/v1/futures/openOrders', { body: [STOP_ROW, TPSL_ROW] });
    const stops = await client.ordersV1.openOrdersV1({ type: 'STOP' });
    expect(stops.ok && stops.value.map((o) => o.kind)).toEqual(['stop', 'tpsl']);

    venue.clear();
    for (const limit of [0, 1001, 2.5]) {
      const bad = await client.ordersV1.openOrdersV1({ limit });
      expect(!bad.ok && bad.error.rule).toBe('limit-range');
    }
    expect(venue.requests).toHaveLength(0);
  });

  it('cancels and returns the pre-cancel snapshot as-is (status NEW)', async () => {
    venue.reply('DELETE /api/v1/futures/order', { body: CANCEL_ROW });
    const result = await client.ordersV1.orderV1Cancel({ orderId: '1289182123551455488', symbol: 'BTC-SWAP-USDT' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.status).toBe('NEW');
    expect(result.value.marginLocked?.toString()).toBe('9.5');
    expect(result.value.clientOrderId).toBe('test1115');
    const wire = venue.last();
    expect([wire.method, wire.path, wire.signature, wire.rawBody]).toEqual(['DELETE', '/api/v1/futures/order', 'valid', '']);
    expect(wire.params).toEqual([['orderId', '1289182123551455488'], ['symbol', 'BTC-SWAP-USDT'], ...AUTH]);

    venue.reply('DELETE /api/v1/futures/order', { body: STOP_ROW });
    const stop = await client.ordersV1.orderV1Cancel({ origClientOrderId: 'stop-1', type: 'STOP' });
    expect(stop.ok && stop.value.status).toBe('ORDER_NEW');
    expect(paramsOf(venue.last())).toMatchObject({ origClientOrderId: 'stop-1', type: 'STOP' });
  });
});

describe('v1 order/update', () => {
  it('modifies a LIMIT order with a signed form in spec order', async () => {
    venue.reply('POST /api/v1/futures/order/update', { body: { ...CANCEL_ROW, price: '19100', status: 'PENDING_NEW', executeQty: '0' } });
    const result = await client.ordersV1.orderV1Update({ type: 'LIMIT', orderId: '1289182123551455488', newClientOrderId: 'n1', quantity: dec(5), price: dec(19100), priceType: 'INPUT' });
    expect(result.ok && result.value.price.toString()).toBe('19100');
    const wire = venue.last();
    expect([wire.method, wire.path, wire.signature]).toEqual(['POST', '/api/v1/futures/order/update', 'valid']);
    expect(wire.params).toEqual([
      ['orderId', '1289182123551455488'], ['newClientOrderId', 'n1'], ['type', 'LIMIT'], ['quantity', '5'], ['price', '19100'], ['priceType', 'INPUT'], ...AUTH,
    ]);
  });

  it('modifies STOP and trailing TP/SL orders and parses the shape of the type', async () => {
    venue.reply('POST /api/v1/futures/order/update', { body: { ...STOP_ROW, stopPrice: '94000' } });
    const stop = await client.ordersV1.orderV1Update({ type: 'STOP', origClientOrderId: 'stop-1', stopPrice: dec(94000), triggerBy: 'MARK_PRICE' });
    expect(stop.ok && stop.value.stopPrice.toString()).toBe('94000');
    expect(venue.last().params).toEqual([['origClientOrderId', 'stop-1'], ['type', 'STOP'], ['stopPrice', '94000'], ['triggerBy', 'MARK_PRICE'], ...AUTH]);

    venue.reply('POST /api/v1/futures/order/update', { body: TPSL_ROW });
    const tpsl = await client.ordersV1.orderV1Update({
      type: 'STOP_PROFIT_LOSS', orderId: '2124136467689135002', stopPrice: dec(0), stopType: 'TRAILING_STOP', activePrice: dec(96000),
      fallbackType: 'RATE', fallbackQuantity: dec('0.02'), category: 'USDT',
    });
    expect(tpsl.ok && tpsl.value.activePrice.toString()).toBe('95000');
    expect(venue.last().params).toEqual([
      ['orderId', '2124136467689135002'], ['type', 'STOP_PROFIT_LOSS'], ['stopPrice', '0'], ['stopType', 'TRAILING_STOP'], ['activePrice', '96000'],
      ['fallbackType', 'RATE'], ['fallbackQuantity', '0.02'], ['category', 'USDT'], ...AUTH,
    ]);
  });

  it('refuses each locally checkable update rule, sending nothing', async () => {
    const id = { orderId: '1' };
    const tp = { ...id, type: 'STOP_PROFIT_LOSS' as const, stopPrice: dec(100) };
    const cases: Array<[UpdateOrderV1, string, string | undefined]> = [
      [{ type: 'LIMIT', price: dec(1) }, 'order-id-required', 'orderId'],
      [{ ...id, type: 'LIMIT', newClientOrderId: 'only-a-new-id' }, 'update-rule-1', undefined],
      [{ ...id, type: 'STOP', newClientOrderId: 'x' }, 'update-rule-1', undefined],
      [{ ...id, type: 'LIMIT', price: dec(0) }, 'update-rule-3', undefined],
      [{ ...id, type: 'STOP', quantity: dec(0), valueQuantity: dec(0), stopPrice: dec(0) }, 'update-rule-3', undefined],
      [{ ...tp, stopPrice: dec(0) }, 'update-rule-3', undefined],
      [{ ...id, type: 'LIMIT', price: dec(1), side: 'BUY_OPEN' as never }, 'update-rule-4', 'side'],
      [{ ...id, type: 'LIMIT', price: dec(1), symbol: 'BTC-SWAP-USDT' as never }, 'update-rule-4', 'symbol'],
      [{ ...id, type: 'LIMIT', priceType: 'MARKET', price: dec(5) }, 'update-rule-6', 'price'],
      [{ ...id, type: 'STOP', priceType: 'MARKET', price: dec(5) }, 'update-rule-6', 'price'],
      [{ ...tp, priceType: 'MARKET', price: dec(5) }, 'update-rule-7', 'price'],
      [{ ...id, type: 'STOP_PROFIT_LOSS', stopPrice: undefined as never, quantity: dec(1) }, 'update-rule-7', 'stopPrice'],
      [{ ...tp, activePrice: dec(1) }, 'update-rule-7', 'activePrice'],
      [{ ...tp, stopType: 'FIXED_STOP', fallbackQuantity: dec(1) }, 'update-rule-7', 'fallbackQuantity'],
      [{ ...tp, stopType: 'TRAILING_STOP', fallbackQuantity: dec(1) }, 'update-rule-7', 'fallbackType'],
      [{ ...tp, stopType: 'TRAILING_STOP', fallbackType: 'PRICE' }, 'update-rule-7', 'fallbackQuantity'],
      [{ ...tp, stopType: 'TRAILING_STOP', fallbackType: 'PRICE', fallbackQuantity: dec(0) }, 'update-rule-7', 'fallbackQuantity'],
      [{ ...tp, stopType: 'TRAILING_STOP', fallbackType: 'PRICE', fallbackQuantity: dec(1), activePrice: dec(0) }, 'update-rule-7', 'activePrice'],
      [{ ...id, type: 'LIMIT', quantity: dec(-1) }, 'update-rule-8', 'quantity'],
      [{ ...id, type: 'STOP', valueQuantity: dec(-1) }, 'update-rule-8', 'valueQuantity'],
      [{ ...id, type: 'LIMIT', price: dec(-1) }, 'update-rule-9', 'price'],
      [{ ...id, type: 'STOP', stopPrice: dec(-1) }, 'update-rule-2', 'stopPrice'],
    ];
    for (const [change, rule, field] of cases) {
      const result = await client.ordersV1.orderV1Update(change);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect({ kind: result.error.kind, rule: result.error.rule, field: result.error.field }).toEqual({ kind: 'invalid-request', rule, field });
    }
    expect(venue.requests).toHaveLength(0);
  });

  it('accepts both ids (orderId wins at the service) and INPUT without price (keeps the original price)', async () => {
    venue.always('POST /api/v1/futures/order/update', { body: CANCEL_ROW });
    expect((await client.ordersV1.orderV1Update({ type: 'LIMIT', orderId: '1', origClientOrderId: 'c', priceType: 'INPUT' })).ok).toBe(true);
    expect((await client.ordersV1.orderV1Update({ type: 'LIMIT', orderId: '1', priceType: 'MARKET', price: dec(0) })).ok).toBe(true);
    expect(venue.requests).toHaveLength(2);
  });
});

describe('v1 malformed replies', () => {
  it('names the offending field', async () => {
    const { price: _price, ...noPrice } = CREATE_ROW;
    venue.reply('POST /api/v1/futures/order', { body: noPrice });
    const created = await client.ordersV1.orderV1Create({ symbol: 'X', side: 'BUY_OPEN', type: 'LIMIT', quantity: dec(1), price: dec(1), newClientOrderId: 'a' });
    expect(!created.ok && [created.error.kind, created.error.field]).toEqual(['malformed-response', 'price']);

    const { executedQty: _e, executeQty: _x, ...noFilled } = CREATE_ROW;
    venue.reply('GET /api/v1/futures/order', { body: noFilled });
    const got = await client.ordersV1.orderV1Get({ orderId: '1' });
    expect(!got.ok && [got.error.kind, got.error.field]).toEqual(['malformed-response', 'executedQty']);

    venue.reply('GET /api/v1/futures/openOrders', { body: [OPEN_ROW, { ...OPEN_ROW, side: 'BUY' }] });
    expect(await outcomeOf(client, () => client.ordersV1.openOrdersV1())).toEqual({ kind: 'skipped', field: '[1].side' });

    venue.reply('DELETE /api/v1/futures/order', { body: { ...STOP_ROW, type: 'LIMIT' } });
    const stop = await client.ordersV1.orderV1Cancel({ orderId: '1', type: 'STOP' });
    expect(!stop.ok && [stop.error.kind, stop.error.field]).toEqual(['malformed-response', 'type']);

    venue.reply('POST /api/v1/futures/order/update', { body: { ...TPSL_ROW, fallType: 'none' } });
    const tpsl = await client.ordersV1.orderV1Update({ type: 'STOP_PROFIT_LOSS', orderId: '1', stopPrice: dec(5) });
    expect(!tpsl.ok && [tpsl.error.kind, tpsl.error.field]).toEqual(['malformed-response', 'fallType']);
  });
});
