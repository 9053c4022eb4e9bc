import { dec } from '../../src/core/decimal.js';
import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import type { StopCategory } from '../../src/protocol/wire-enums.js';
import { outcomeOf } from '../support/skipped-rows.js';
import { clientFor, TEST_KEY, v2 } from '../support/client.js';
import { FixtureVenue, paramsOf } from '../support/fixture-venue.js';

// API-NOTES §5.9 (DOC-V2 example rows).
const PLAN_ROW = {
  time: '1767952799216', updateTime: '1767952799216', orderId: '2124136467689134848', clientOrderId: '1767952799112', symbol: 'BTC-SWAP-USDT',
  price: '0', leverage: '20', origQty: '2', executedQty: '0', avgPrice: '0', marginLocked: '10', type: 'STOP_MARKET', side: 'BUY',
  positionSide: 'LONG', timeInForce: 'GTC', status: 'ORDER_NEW', contractMultiplier: '0.001', stopPrice: '95000', triggerBy: 'CONTRACT_PRICE',
};
const TPSL_ROW = {
  time: '1767952803000', updateTime: '1767952803000', orderId: '2124136467689135001', clientOrderId: 'sl-mkt-001', symbol: 'BTC-SWAP-USDT',
  price: '0', leverage: '20', origQty: '1', executedQty: '0', avgPrice: '0', marginLocked: '5', type: 'STOP_PROFIT_LOSS_MARKET', side: 'SELL',
  positionSide: 'LONG', timeInForce: 'GTC', status: 'ORDER_NEW', contractMultiplier: '0.001', stopPrice: '92000', triggerBy: 'CONTRACT_PRICE',
  stopOrderType: 'STOP_LOSS', stopType: 'FIXED_STOP',
};
const TRAIL_ROW = {
  time: '1767952804000', updateTime: '1767952804000', orderId: '2124136467689135002', clientOrderId: 'trail-001', symbol: 'BTC-SWAP-USDT',
  price: '0', leverage: '20', origQty: '1', executedQty: '0', avgPrice: '0', marginLocked: '5', type: 'STOP_PROFIT_LOSS', side: 'SELL',
  positionSide: 'LONG', timeInForce: 'GTC', status: 'ORDER_NEW', contractMultiplier: '0.001', stopPrice: '0', triggerBy: 'CONTRACT_PRICE',
  stopOrderType: 'STOP_LOSS', stopType: 'TRAILING_STOP', activePrice: '95000', fallbackType: 'RATE', fallbackQuantity: '0.01', activeStatus: 0,
};

let venue: FixtureVenue;
let client: ExchangeClient;

beforeAll(async () => {
  venue = await FixtureVenue.start();
  client = clientFor(venue);
});
afterAll(() => venue.close());
beforeEach(() => venue.clear());

const keysOf = (params: ReadonlyArray<readonly [string, string]>): string[] => params.map(([k]) => k);

describe('plan order create', () => {
  it('posts a STOP_MARKET plan order as signed JSON and parses the plan row', async () => {
    venue.reply('POST /api/v2/futures/algo-order', { body: v2(PLAN_ROW) });
    const result = await client.algo.createPlanOrder({
      symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: dec(95000),
      newClientOrderId: '1767952799112', quantity: dec(2), triggerBy: 'CONTRACT_PRICE', category: 'USDT',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.orderId).toBe('2124136467689134848');
    expect(result.value.stopPrice?.toString()).toBe('95000');
    expect(result.value.triggerBy).toBe('CONTRACT_PRICE');
    expect(result.value.status).toBe('ORDER_NEW');
    expect(result.value.type).toBe('STOP_MARKET');
    expect(result.value.marginLocked?.equals(10)).toBe(true);
    const wire = venue.last();
    expect(wire.method).toBe('POST');
    expect(wire.path).toBe('/api/v2/futures/algo-order');
    expect(wire.signature).toBe('valid');
    expect(wire.headers['x-bb-apikey']).toBe(TEST_KEY);
    expect(wire.headers['content-type']).toBe('application/json');
    expect(wire.rawBody).toBe(
      '{"symbol":"BTC-SWAP-USDT","side":"BUY","positionSide":"LONG","type":"STOP_MARKET","stopPrice":"95000","newClientOrderId":"1767952799112","quantity":"2","triggerBy":"CONTRACT_PRICE"}',
    );
    expect(wire.signedText.endsWith(wire.rawBody)).toBe(true);
    expect(keysOf(wire.params)).toEqual(['category', 'recvWindow', 'timestamp']);
    expect(paramsOf(wire)).toMatchObject({ category: 'USDT' });
  });

  it('posts a STOP plan order with a limit price and attached TP/SL', async () => {
    venue.reply('POST /api/v2/futures/algo-order', { body: v2({ ...PLAN_ROW, type: 'STOP', price: '95100' }) });
    const result = await client.algo.createPlanOrder({
      symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'STOP', stopPrice: dec(95000), price: dec('95100.5'),
      newClientOrderId: 'p1', valueQuantity: dec(200), timeInForce: 'GTC', triggerBy: 'MARK_PRICE',
      takeProfit: dec(99000), tpTriggerBy: 'MARK_PRICE', tpOrderType: 'MARKET',
      stopLoss: dec(93000), slTriggerBy: 'CONTRACT_PRICE', slLimitPrice: dec(92900), slOrderType: 'LIMIT',
    });
    expect(result.ok && result.value.price.toString()).toBe('95100');
    const wire = venue.last();
    expect(wire.rawBody).toBe(
      '{"symbol":"BTC-SWAP-USDT","side":"BUY","positionSide":"LONG","type":"STOP","stopPrice":"95000","newClientOrderId":"p1","valueQuantity":"200","price":"95100.5","timeInForce":"GTC","triggerBy":"MARK_PRICE","takeProfit":"99000","tpTriggerBy":"MARK_PRICE","tpOrderType":"MARKET","stopLoss":"93000","slTriggerBy":"CONTRACT_PRICE","slLimitPrice":"92900","slOrderType":"LIMIT"}',
    );
    expect(keysOf(wire.params)).toEqual(['recvWindow', 'timestamp']);
    expect(wire.signature).toBe('valid');
  });

  it('refuses plan orders that break the create rules, sending nothing', async () => {
    const base = { symbol: 'BTC-SWAP-USDT', side: 'BUY' as const, positionSide: 'LONG' as const, newClientOrderId: 'x', stopPrice: dec(95000), quantity: dec(1) };
    const stopNoPrice = await client.algo.createPlanOrder({ ...base, type: 'STOP' });
    expect(!stopNoPrice.ok && stopNoPrice.error.rule).toBe('stop-needs-price');
    const marketWithPrice = await client.algo.createPlanOrder({ ...base, type: 'STOP_MARKET', price: dec(1) });
    expect(!marketWithPrice.ok && marketWithPrice.error.rule).toBe('stop-market-has-no-price');
    const zeroTrigger = await client.algo.createPlanOrder({ ...base, type: 'STOP_MARKET', stopPrice: dec(0) });
    expect(!zeroTrigger.ok && zeroTrigger.error.rule).toBe('stopPrice-positive');
    const noQty = await client.algo.createPlanOrder({ ...base, type: 'STOP_MARKET', quantity: dec(0), valueQuantity: dec(0) });
    expect(!noQty.ok && noQty.error.rule).toBe('quantity-required');
    const noClientId = await client.algo.createPlanOrder({ ...base, type: 'STOP_MARKET', newClientOrderId: ' ' });
    expect(!noClientId.ok && noClientId.error.kind).toBe('invalid-request');
    expect(!noClientId.ok && noClientId.error.field).toBe('newClientOrderId');
    expect(venue.requests).toHaveLength(0);
  });

  it('reports a malformed row naming the field, and a business error as rejected', async () => {
    venue.reply('POST /api/v2/futures/algo-order', { body: v2({ ...PLAN_ROW, stopPrice: 'abc' }) });
    const order = { symbol: 'BTC-SWAP-USDT', side: 'BUY' as const, positionSide: 'LONG' as const, type: 'STOP_MARKET' as const, newClientOrderId: 'm', stopPrice: dec(1), quantity: dec(1) };
    const bad = await client.algo.createPlanOrder(order);
    expect(!bad.ok && bad.error.kind).toBe('malformed-response');
    expect(!bad.ok && bad.error.field).toBe('stopPrice');
    venue.reply('POST /api/v2/futures/algo-order', { status: 400, body: { code: -1207, msg: 'plan order count limit', data: null } });
    const rejected = await client.algo.createPlanOrder(order);
    expect(!rejected.ok && rejected.error.kind).toBe('rejected');
    expect(!rejected.ok && rejected.error.code).toBe(-1207);
  });
});

describe('plan and TP/SL update', () => {
  it('updates a trailing TP/SL row and parses its trailing fields', async () => {
    venue.reply('POST /api/v2/futures/algo-order/update', { body: v2({ ...TRAIL_ROW, activePrice: '96000' }) });
    const result = await client.algo.updateAlgoOrder({ type: 'STOP_PROFIT_LOSS', orderId: '2124136467689135002', stopPrice: dec(0), quantity: dec('0.5'), category: 'USDT' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.orderId).toBe('2124136467689135002');
    expect(result.value.stopType).toBe('TRAILING_STOP');
    expect(result.value.stopOrderType).toBe('STOP_LOSS');
    expect(result.value.activePrice?.toString()).toBe('96000');
    expect(result.value.fallbackType).toBe('RATE');
    expect(result.value.fallbackQuantity?.toString()).toBe('0.01');
    expect(result.value.activeStatus).toBe(0);
    const wire = venue.last();
    expect(wire.method).toBe('POST');
    expect(wire.path).toBe('/api/v2/futures/algo-order/update');
    expect(wire.rawBody).toBe('{"type":"STOP_PROFIT_LOSS","orderId":"2124136467689135002","quantity":"0.5","stopPrice":"0"}');
    expect(wire.signature).toBe('valid');
    expect(paramsOf(wire)).toMatchObject({ category: 'USDT' });
  });

  it('updates a plan row by client order id', async () => {
    venue.reply('POST /api/v2/futures/algo-order/update', { body: v2({ ...PLAN_ROW, stopPrice: '94000', triggerBy: 'MARK_PRICE' }) });
    const result = await client.algo.updateAlgoOrder({ type: 'STOP', origClientOrderId: '1767952799112', stopPrice: dec(94000), triggerBy: 'MARK_PRICE' });
    expect(result.ok && result.value.stopPrice?.toString()).toBe('94000');
    expect(result.ok && result.value.triggerBy).toBe('MARK_PRICE');
    expect(venue.last().rawBody).toBe('{"type":"STOP","origClientOrderId":"1767952799112","stopPrice":"94000","triggerBy":"MARK_PRICE"}');
  });

  it('refuses both ids, no id, nothing to change and a wrong type', async () => {
    const both = await client.algo.updateAlgoOrder({ type: 'STOP', orderId: '1', origClientOrderId: 'x', stopPrice: dec(1) });
    expect(!both.ok && both.error.rule).toBe('order-id-exclusive');
    const none = await client.algo.updateAlgoOrder({ type: 'STOP', stopPrice: dec(1) });
    expect(!none.ok && none.error.rule).toBe('order-id-required');
    const nothing = await client.algo.updateAlgoOrder({ type: 'STOP', orderId: '1', newClientOrderId: 'n' });
    expect(!nothing.ok && nothing.error.rule).toBe('nothing-to-modify');
    const wrongType = await client.algo.updateAlgoOrder({ type: 'LIMIT' as string as StopCategory, orderId: '1', stopPrice: dec(1) });
    expect(!wrongType.ok && wrongType.error.rule).toBe('algo-type');
    const negative = await client.algo.updateAlgoOrder({ type: 'STOP', orderId: '1', stopPrice: dec(-1) });
    expect(!negative.ok && negative.error.rule).toBe('stopPrice-not-negative');
    expect(venue.requests).toHaveLength(0);
  });
});

describe('algo queries and cancels', () => {
  it('gets one TP/SL row by client order id', async () => {
    venue.reply('GET /api/v2/futures/algo-order', { body: v2(TPSL_ROW) });
    const result = await client.algo.getAlgoOrder({ origClientOrderId: 'sl-mkt-001' });
    expect(result.ok && result.value.type).toBe('STOP_PROFIT_LOSS_MARKET');
    expect(result.ok && result.value.stopType).toBe('FIXED_STOP');
    expect(result.ok && result.value.stopPrice?.toString()).toBe('92000');
    const wire = venue.last();
    expect(wire.method).toBe('GET');
    expect(wire.path).toBe('/api/v2/futures/algo-order');
    expect(wire.rawBody).toBe('');
    expect(keysOf(wire.params)).toEqual(['origClientOrderId', 'recvWindow', 'timestamp']);
    expect(paramsOf(wire)).toMatchObject({ origClientOrderId: 'sl-mkt-001' });
    expect(wire.signature).toBe('valid');
    const bad = await client.algo.getAlgoOrder({ orderId: 'abc' });
    expect(!bad.ok && bad.error.rule).toBe('order-id-format');
  });

  it('cancels one plan row and answers its final snapshot', async () => {
    venue.reply('DELETE /api/v2/futures/algo-order', { body: v2({ ...PLAN_ROW, status: 'ORDER_CANCELED' }) });
    const result = await client.algo.cancelAlgoOrder({ orderId: '2124136467689134848', category: 'USDT' });
    expect(result.ok && result.value.status).toBe('ORDER_CANCELED');
    const wire = venue.last();
    expect(wire.method).toBe('DELETE');
    expect(wire.path).toBe('/api/v2/futures/algo-order');
    expect(keysOf(wire.params)).toEqual(['orderId', 'category', 'recvWindow', 'timestamp']);
    expect(paramsOf(wire)).toMatchObject({ orderId: '2124136467689134848', category: 'USDT' });
    expect(wire.signature).toBe('valid');
  });

  it('lists open TP/SL rows with stopCategory and limit', async () => {
    venue.reply('GET /api/v2/futures/open-algo-orders', { body: v2([TPSL_ROW, TRAIL_ROW]) });
    const result = await client.algo.openAlgoOrders({ symbol: 'BTC-SWAP-USDT', stopCategory: 'STOP_PROFIT_LOSS', limit: 50 });
    expect(result.ok && result.value.map((r) => r.orderId)).toEqual(['2124136467689135001', '2124136467689135002']);
    expect(result.ok && result.value[1]?.activeStatus).toBe(0);
    const wire = venue.last();
    expect(wire.method).toBe('GET');
    expect(wire.path).toBe('/api/v2/futures/open-algo-orders');
    expect(keysOf(wire.params)).toEqual(['symbol', 'stopCategory', 'limit', 'recvWindow', 'timestamp']);
    expect(paramsOf(wire)).toMatchObject({ symbol: 'BTC-SWAP-USDT', stopCategory: 'STOP_PROFIT_LOSS', limit: '50' });
    expect(wire.signature).toBe('valid');
  });

  it('lists open plan rows without stopCategory', async () => {
    venue.reply('GET /api/v2/futures/open-algo-orders', { body: v2([PLAN_ROW]) });
    const result = await client.algo.openAlgoOrders();
    expect(result.ok && result.value).toHaveLength(1);
    expect(keysOf(venue.last().params)).toEqual(['recvWindow', 'timestamp']);
  });

  it('lists history rows with a time window', async () => {
    venue.reply('GET /api/v2/futures/history-algo-orders', { body: v2([{ ...PLAN_ROW, status: 'ORDER_FILLED' }]) });
    const result = await client.algo.historyAlgoOrders({ symbol: 'BTC-SWAP-USDT', orderId: '0', stopCategory: 'STOP', startTime: 1767952000000, endTime: 1767953000000, limit: 1000, category: 'USDC' });
    expect(result.ok && result.value[0]?.status).toBe('ORDER_FILLED');
    const wire = venue.last();
    expect(wire.path).toBe('/api/v2/futures/history-algo-orders');
    expect(wire.params.slice(0, 7)).toEqual([
      ['symbol', 'BTC-SWAP-USDT'], ['orderId', '0'], ['stopCategory', 'STOP'], ['startTime', '1767952000000'], ['endTime', '1767953000000'], ['limit', '1000'], ['category', 'USDC'],
    ]);
    expect(wire.signature).toBe('valid');
  });

  it('refuses a limit outside 1..1000 and names the malformed field of a list row', async () => {
    const tooMany = await client.algo.openAlgoOrders({ limit: 1001 });
    expect(!tooMany.ok && tooMany.error.rule).toBe('limit-range');
    const zero = await client.algo.historyAlgoOrders({ limit: 0 });
    expect(!zero.ok && zero.error.rule).toBe('limit-range');
    expect(venue.requests).toHaveLength(0);
    venue.reply('GET /api/v2/futures/open-algo-orders', { body: v2([{ ...TRAIL_ROW, activeStatus: 'x' }]) });
    expect(await outcomeOf(client, () => client.algo.openAlgoOrders({ stopCategory: 'STOP_PROFIT_LOSS' }))).toEqual({ kind: 'skipped', field: '[0].activeStatus' });
  });

  it('cancels all rows of one family on several symbols (data null)', async () => {
    venue.reply('DELETE /api/v2/futures/batch-cancel-algo-orders', { body: v2(null) });
    const result = await client.algo.cancelAllAlgoOrders(['BTC-SWAP-USDT', 'ETH-SWAP-USDT'], 'STOP_PROFIT_LOSS', 'USDT');
    expect(result).toEqual({ ok: true, value: undefined });
    const wire = venue.last();
    expect(wire.method).toBe('DELETE');
    expect(wire.path).toBe('/api/v2/futures/batch-cancel-algo-orders');
    expect(wire.params.slice(0, 3)).toEqual([['symbol', 'BTC-SWAP-USDT,ETH-SWAP-USDT'], ['stopCategory', 'STOP_PROFIT_LOSS'], ['category', 'USDT']]);
    expect(wire.rawQuery).toContain('symbol=BTC-SWAP-USDT%2CETH-SWAP-USDT&stopCategory=STOP_PROFIT_LOSS');
    expect(wire.signature).toBe('valid');
  });

  it('refuses a batch cancel without symbols or without stopCategory', async () => {
    const noSymbols = await client.algo.cancelAllAlgoOrders([], 'STOP');
    expect(!noSymbols.ok && noSymbols.error.rule).toBe('symbol-list');
    const noFamily = await client.algo.cancelAllAlgoOrders(['BTC-SWAP-USDT'], undefined as unknown as StopCategory);
    expect(!noFamily.ok && noFamily.error.rule).toBe('stop-category-required');
    expect(venue.requests).toHaveLength(0);
  });
});
