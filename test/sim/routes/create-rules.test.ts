import { findSimInstrument } from '../../../src/sim/market-stream/instruments.js';
import type { ParamSource } from '../../../src/sim/routes/index.js';
import { jsonSource, ParamReader, readCreateV1, readCreateV2, readPlanCreate } from '../../../src/sim/routes/index.js';
import type { SimResult } from '../../../src/sim/engine/types.js';
import { plain, source } from './fixtures.js';

const venue = { instrument: (symbol: string) => findSimInstrument(symbol) };

function outcome<T>(result: SimResult<T>): unknown {
  return result.ok ? plain(result.value) : { code: result.error.code };
}

const v1 = (params: Record<string, string>) => outcome(readCreateV1(new ParamReader(source(params)), venue, 'USDT'));
const v2 = (from: ParamSource) => outcome(readCreateV2(new ParamReader(from), venue, 'USDT'));
const plan = (from: ParamSource) => outcome(readPlanCreate(new ParamReader(from), venue, 'USDT'));

const LIMIT = { symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', type: 'LIMIT', quantity: '10', price: '100000', newClientOrderId: 'c1' };

describe('POST /api/v1/futures/order parameters', () => {
  it('reads a limit order', () => {
    expect(v1(LIMIT)).toEqual({
      kind: 'order',
      command: {
        symbol: 'BTC-SWAP-USDT',
        side: 'BUY',
        positionSide: 'LONG',
        type: 'LIMIT',
        quantity: '10',
        price: '100000',
        priceType: 'INPUT',
        timeInForce: 'GTC',
        clientOrderId: 'c1',
        generation: 'v1',
      },
    });
  });

  it.each([
    ['LIMIT_MAKER is POST_ONLY', { timeInForce: 'LIMIT_MAKER' }, { timeInForce: 'POST_ONLY' }],
    ['IOC', { timeInForce: 'IOC' }, { timeInForce: 'IOC' }],
    ['priceType MARKET: no price, IOC', { priceType: 'MARKET', timeInForce: 'GTC' }, { type: 'MARKET', priceType: 'MARKET', timeInForce: 'IOC', price: undefined }],
    ['priceType OPPONENT is a market order', { priceType: 'OPPONENT' }, { type: 'MARKET', priceType: 'MARKET', price: undefined }],
    ['type MARKET is a market order', { type: 'MARKET' }, { type: 'MARKET', priceType: 'MARKET', price: undefined }],
    ['quantity wins over valueQuantity', { valueQuantity: '500' }, { quantity: '10', valueQuantity: undefined }],
    ['valueQuantity alone', { quantity: '0', valueQuantity: '500' }, { quantity: undefined, valueQuantity: '500' }],
    ['SELL_CLOSE', { side: 'SELL_CLOSE' }, { side: 'SELL', positionSide: 'LONG' }],
    ['BUY_CLOSE', { side: 'BUY_CLOSE' }, { side: 'BUY', positionSide: 'SHORT' }],
  ])('%s', (_name, extra: Record<string, string>, expected: Record<string, unknown>) => {
    const result = v1({ ...LIMIT, ...extra }) as { command: Record<string, unknown> };
    for (const [key, value] of Object.entries(expected)) expect([key, result.command[key]]).toEqual([key, value]);
  });

  it('reads attached take-profit and stop-loss legs', () => {
    const result = v1({ ...LIMIT, takeProfit: '110000', tpOrderType: 'LIMIT', tpLimitPrice: '109900', stopLoss: '95000', slTriggerBy: 'MARK_PRICE', slLimitPrice: '1' }) as {
      command: Record<string, unknown>;
    };
    expect(result.command.takeProfit).toEqual({ triggerPrice: '110000', triggerBy: 'CONTRACT_PRICE', orderType: 'LIMIT', limitPrice: '109900' });
    // A MARKET leg ignores its limit price.
    expect(result.command.stopLoss).toEqual({ triggerPrice: '95000', triggerBy: 'MARK_PRICE', orderType: 'MARKET' });
  });

  it('type STOP makes a plan order', () => {
    expect(v1({ ...LIMIT, type: 'STOP', stopPrice: '101000' })).toEqual({
      kind: 'plan',
      command: {
        symbol: 'BTC-SWAP-USDT',
        side: 'BUY',
        positionSide: 'LONG',
        type: 'STOP',
        stopPrice: '101000',
        triggerBy: 'CONTRACT_PRICE',
        quantity: '10',
        price: '100000',
        timeInForce: 'GTC',
        clientOrderId: 'c1',
      },
    });
    expect(v1({ ...LIMIT, type: 'STOP', priceType: 'MARKET', stopPrice: '101000' })).toMatchObject({ kind: 'plan', command: { type: 'STOP_MARKET' } });
  });

  it.each([
    ['symbol missing', { symbol: '' }, -1102],
    ['symbol unknown', { symbol: 'XRP-SWAP-USDT' }, -1121],
    ['USDC symbol on a USDT call', { symbol: 'BTC-SWAP-USDC' }, -1213],
    ['side missing', { side: '' }, -1102],
    ['side v2-style', { side: 'BUY' }, -1117],
    ['type unknown', { type: 'STOP_MARKET' }, -1116],
    ['no quantity', { quantity: '0' }, -1102],
    ['quantity not a number', { quantity: 'ten' }, -1130],
    ['negative quantity', { quantity: '-1' }, -1130],
    ['price missing on INPUT', { price: '' }, -1102],
    ['price zero', { price: '0' }, -1130],
    ['priceType unknown', { priceType: 'BEST' }, -1130],
    ['timeInForce unknown', { timeInForce: 'GTD' }, -1115],
    ['newClientOrderId missing', { newClientOrderId: '' }, -1102],
    ['STOP without stopPrice', { type: 'STOP' }, -1102],
    ['tp LIMIT without tpLimitPrice', { takeProfit: '110000', tpOrderType: 'LIMIT' }, -1102],
    ['tpTriggerBy unknown', { takeProfit: '110000', tpTriggerBy: 'LAST' }, -1130],
  ])('%s → %i', (_name, extra: Record<string, string>, code) => {
    const params = Object.fromEntries(Object.entries({ ...LIMIT, ...extra }).filter(([, v]) => v !== ''));
    expect(v1(params)).toEqual({ code });
  });

  it('reports the first refusal in reading order', () => {
    expect(v1({ side: 'BUY', type: 'X' })).toEqual({ code: -1102 });
    expect(v1({ symbol: 'BTC-SWAP-USDT', side: 'BUY', type: 'X' })).toEqual({ code: -1117 });
  });
});

describe('v2 JSON bodies', () => {
  const body = { symbol: 'BTC-SWAP-USDT', side: 'SELL', positionSide: 'SHORT', type: 'LIMIT', newClientOrderId: 'v2_001', quantity: 1.5, price: 30000 };

  it('accepts JSON numbers as decimals and strings alike', () => {
    expect(v2(jsonSource(body))).toMatchObject({ type: 'LIMIT', quantity: '1.5', price: '30000', priceType: 'INPUT', timeInForce: 'GTC', generation: 'v2' });
    expect(v2(jsonSource({ ...body, quantity: '1.5', price: '30000' }))).toMatchObject({ quantity: '1.5', price: '30000' });
  });

  it('reads the JSON body first, then the query', () => {
    const fallback = source({ timeInForce: 'IOC', price: '1' });
    expect(v2(jsonSource(body, fallback))).toMatchObject({ price: '30000', timeInForce: 'IOC' });
  });

  it('a MARKET order ignores its price and is IOC', () => {
    expect(v2(jsonSource({ ...body, type: 'MARKET' }))).toMatchObject({ type: 'MARKET', priceType: 'MARKET', timeInForce: 'IOC' });
    expect(v2(jsonSource({ ...body, type: 'MARKET' }))).not.toHaveProperty('price');
  });

  it.each([
    ['object where a scalar belongs', { price: { value: 1 } }, -1130],
    ['null is absent', { price: null }, -1102],
    ['side v1-style', { side: 'BUY_OPEN' }, -1117],
    ['positionSide unknown', { positionSide: 'BOTH' }, -1130],
    ['type STOP', { type: 'STOP' }, -1116],
    ['no quantity', { quantity: 0 }, -1102],
  ])('%s → %i', (_name, extra: Record<string, unknown>, code) => {
    expect(v2(jsonSource({ ...body, ...extra }))).toEqual({ code });
  });
});

describe('POST /api/v2/futures/algo-order parameters', () => {
  const body = { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: '95000', newClientOrderId: 'p1', quantity: '2' };

  it('reads a market plan', () => {
    expect(plan(jsonSource(body))).toEqual({
      symbol: 'BTC-SWAP-USDT',
      side: 'BUY',
      positionSide: 'LONG',
      type: 'STOP_MARKET',
      stopPrice: '95000',
      triggerBy: 'CONTRACT_PRICE',
      quantity: '2',
      timeInForce: 'GTC',
      clientOrderId: 'p1',
    });
  });

  it.each([
    ['STOP needs a price', { type: 'STOP' }, -1102],
    ['stopPrice required', { stopPrice: undefined }, -1102],
    ['type LIMIT', { type: 'LIMIT' }, -1116],
    ['triggerBy unknown', { triggerBy: 'INDEX_PRICE' }, -1130],
  ])('%s → %i', (_name, extra: Record<string, unknown>, code) => {
    expect(plan(jsonSource({ ...body, ...extra }))).toEqual({ code });
  });
});

describe('ParamReader', () => {
  it.each([
    [{}, 20],
    [{ limit: '1' }, 1],
    [{ limit: '1000' }, 1000],
  ])('limit %j is %i', (params: Record<string, string>, limit) => {
    const r = new ParamReader(source(params));
    expect(r.limit()).toBe(limit);
    expect(r.failure).toBeUndefined();
  });

  it.each([['0'], ['1001'], ['2.5'], ['x']])('limit %s is refused with -1130', (limit) => {
    const r = new ParamReader(source({ limit }));
    r.limit();
    expect(r.failure).toEqual({ code: -1130, msg: "Data sent for paramter 'limit' is not valid." });
  });

  it('keeps the first refusal', () => {
    const r = new ParamReader(source({ a: 'x' }));
    r.requiredText('missing');
    r.decimal('a');
    expect(r.failure?.code).toBe(-1102);
    expect(r.finish(() => 1)).toEqual({ ok: false, error: r.failure });
  });
});
