import { ACCOUNT, d, depth, engine, order, standardBook, T0, trade } from './engine-support.js';
import type { OrderView } from '../../../src/sim/engine/types.js';
import type { SimResult } from '../../../src/sim/engine/types.js';

function placed(result: SimResult<OrderView>): OrderView {
  if (!result.ok) throw new Error(`rejected: ${result.error.code} ${result.error.msg}`);
  return result.value;
}

describe('taker orders sweep visible depth level by level', () => {
  test.each([
    // tif, side, price, qty → status, executed, avgPrice
    ['GTC', 'BUY', '100000.1', '4', 'PARTIALLY_FILLED', '4', '100000.05'],
    ['GTC', 'BUY', '100000.1', '6', 'PARTIALLY_FILLED', '5', '100000.06'],
    ['IOC', 'BUY', '100000.1', '6', 'CANCELED', '5', '100000.06'],
    ['IOC', 'BUY', '99999', '1', 'CANCELED', '0', '0'],
    ['FOK', 'BUY', '100000.1', '6', 'CANCELED', '0', '0'],
    ['FOK', 'BUY', '100000.5', '6', 'FILLED', '6', '100000.13333'],
    ['GTC', 'SELL', '99999.8', '7', 'FILLED', '7', '99999.87143'],
  ] as const)('%s %s %s × %s → %s, executed %s at %s', (tif, side, price, qty, status, executed, avg) => {
    const { ex } = engine();
    standardBook(ex);
    const view = placed(ex.placeOrder(ACCOUNT, order({ side, price: d(price), quantity: d(qty), timeInForce: tif })));
    const final = placed(ex.getOrder(ACCOUNT, { orderId: view.orderId }));
    expect(final.executedQty).toBe(executed);
    expect(final.status).toBe(status === 'PARTIALLY_FILLED' && executed === qty ? 'FILLED' : status);
    expect(final.avgPrice.slice(0, avg.length)).toBe(avg);
  });

  test('a market order sweeps within the protective band and cancels the rest', () => {
    const { ex } = engine();
    standardBook(ex);
    const view = placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', type: 'MARKET', quantity: d('60') })));
    expect(view.executedQty).toBe('55');
    expect(view.status).toBe('CANCELED');
    expect(view.timeInForce).toBe('IOC');
    expect(view.price).toBe('110000');
  });

  test('v1 priceType MARKET uses latest price ±5% and answers PENDING_NEW only while working', () => {
    const { ex } = engine();
    standardBook(ex);
    const view = placed(ex.placeOrder(ACCOUNT, order({ side: 'SELL', type: 'MARKET', priceType: 'MARKET', quantity: d('1'), generation: 'v1' })));
    expect(view.price).toBe('95000');
    expect(view.status).toBe('FILLED');
    const resting = placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('99000'), quantity: d('1'), generation: 'v1' })));
    expect(resting.status).toBe('PENDING_NEW');
    expect(placed(ex.getOrder(ACCOUNT, { orderId: resting.orderId })).status).toBe('NEW');
  });

  test('liquidity taken stays taken until the next snapshot', () => {
    const { ex } = engine();
    standardBook(ex);
    placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('100000'), quantity: d('2'), timeInForce: 'IOC' })));
    const second = placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('100000'), quantity: d('2'), timeInForce: 'IOC' })));
    expect(second.executedQty).toBe('0');
    standardBook(ex, T0 + 1000);
    const third = placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('100000'), quantity: d('2'), timeInForce: 'IOC' })));
    expect(third.executedQty).toBe('2');
  });

  test('POST_ONLY that would cross is rejected; one that rests is accepted', () => {
    const { ex } = engine();
    standardBook(ex);
    const crossing = ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('100000'), quantity: d('1'), timeInForce: 'POST_ONLY' }));
    expect(crossing.ok).toBe(false);
    if (!crossing.ok) expect(crossing.error.code).toBe(-1158);
    expect(placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('99999.9'), quantity: d('1'), timeInForce: 'POST_ONLY' }))).status).toBe('NEW');
  });
});

describe('resting orders fill from trades, behind the visible queue', () => {
  test('the queue ahead trades first, then the order fills as maker at its price', () => {
    const { ex, events } = engine();
    standardBook(ex);
    const view = placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('99999.9'), quantity: d('3') })));
    trade(ex, T0 + 10, '99999.9', '4', true);
    expect(placed(ex.getOrder(ACCOUNT, { orderId: view.orderId })).executedQty).toBe('0');
    trade(ex, T0 + 20, '99999.9', '2', true);
    expect(placed(ex.getOrder(ACCOUNT, { orderId: view.orderId })).executedQty).toBe('1');
    // A buyer-initiated print at our price does not reach a resting bid.
    trade(ex, T0 + 30, '99999.9', '5', false);
    expect(placed(ex.getOrder(ACCOUNT, { orderId: view.orderId })).executedQty).toBe('1');
    const fills = events.filter((e) => e.type === 'trade');
    expect(fills.at(-1)).toMatchObject({ trade: { price: '99999.9', qty: '1', isMaker: true, commission: '0.01999998' } });
  });

  test('a print through the price fills without waiting for the queue', () => {
    const { ex } = engine();
    standardBook(ex);
    const view = placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('99999.9'), quantity: d('3') })));
    trade(ex, T0 + 10, '99999.7', '2', true);
    const after = placed(ex.getOrder(ACCOUNT, { orderId: view.orderId }));
    expect(after.executedQty).toBe('2');
    expect(after.avgPrice).toBe('99999.9');
  });

  test('the queue ahead shrinks when the visible level shrinks (cancels ahead)', () => {
    const { ex } = engine();
    standardBook(ex);
    const view = placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('99999.9'), quantity: d('3') })));
    depth(ex, T0 + 5, [['99999.9', '1']], [['100000', '2']]);
    trade(ex, T0 + 10, '99999.9', '2', true);
    expect(placed(ex.getOrder(ACCOUNT, { orderId: view.orderId })).executedQty).toBe('1');
  });

  test('a snapshot whose asks cross a resting bid fills it at its own price', () => {
    const { ex } = engine();
    standardBook(ex);
    const view = placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('99999.9'), quantity: d('3') })));
    depth(ex, T0 + 5, [['99999', '1']], [['99999.5', '1'], ['99999.9', '1'], ['100000', '9']]);
    const after = placed(ex.getOrder(ACCOUNT, { orderId: view.orderId }));
    expect(after.executedQty).toBe('2');
    expect(after.avgPrice).toBe('99999.9');
  });

  test('partial fills across several prints end FILLED and free the margin', () => {
    const { ex } = engine();
    standardBook(ex);
    const view = placed(ex.placeOrder(ACCOUNT, order({ side: 'SELL', price: d('100000.2'), quantity: d('3') })));
    expect(Number(ex.futuresBalance(ACCOUNT).orderMargin)).toBeGreaterThan(0);
    trade(ex, T0 + 10, '100000.3', '1', false);
    trade(ex, T0 + 20, '100000.4', '5', false);
    const after = placed(ex.getOrder(ACCOUNT, { orderId: view.orderId }));
    expect(after.status).toBe('FILLED');
    expect(ex.futuresBalance(ACCOUNT).orderMargin).toBe('0');
    expect(ex.positions(ACCOUNT)).toEqual([expect.objectContaining({ side: 'SHORT', position: '3', avgPrice: '100000.2' })]);
  });
});

describe('filters refuse with the real error codes', () => {
  test.each([
    ['price off tick', { price: d('100000.05'), quantity: d('1') }, -1134],
    ['quantity off step', { price: d('99000'), quantity: d('0.15') }, -1137],
    ['quantity below min', { price: d('99000'), quantity: d('0') , valueQuantity: d('1') }, -1136],
    ['buy above the band', { price: d('120000'), quantity: d('1') }, -1138],
    ['notional below minimum', { price: d('10'), quantity: d('0.1') }, -1140],
    ['insufficient balance', { price: d('99000'), quantity: d('30000') }, -1131],
    ['no quantity', { price: d('99000') }, -1102],
  ] as const)('%s → %s', (_name, fields, code) => {
    const { ex } = engine();
    standardBook(ex);
    const result = ex.placeOrder(ACCOUNT, order({ side: 'BUY', ...fields }));
    expect(result.ok ? 0 : result.error.code).toBe(code);
  });

  test('a duplicate client order id among open orders is refused (-1141)', () => {
    const { ex } = engine();
    standardBook(ex);
    placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('99000'), quantity: d('1'), clientOrderId: 'same' })));
    const again = ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('99000'), quantity: d('1'), clientOrderId: 'same' }));
    expect(again.ok ? 0 : again.error.code).toBe(-1141);
  });

  test('minimum notional at a low price (-1140) and unknown or wrong-category symbols', () => {
    const { ex } = engine();
    standardBook(ex);
    depth(ex, T0, [['1', '1']], [['2', '1']], 'ETH-SWAP-USDT');
    trade(ex, T0, '1.5', '1', false, 'ETH-SWAP-USDT');
    const small = ex.placeOrder(ACCOUNT, order({ symbol: 'ETH-SWAP-USDT', side: 'BUY', price: d('1.5'), quantity: d('1') }));
    expect(small.ok ? 0 : small.error.code).toBe(-1140);
    const unknown = ex.placeOrder(ACCOUNT, order({ symbol: 'NOPE-SWAP-USDT', side: 'BUY', price: d('1'), quantity: d('1') }));
    expect(unknown.ok ? 0 : unknown.error.code).toBe(-1121);
    const usdc = ex.placeOrder(ACCOUNT, order({ symbol: 'BTC-SWAP-USDC', side: 'BUY', price: d('1'), quantity: d('1') }));
    expect(usdc.ok ? 0 : usdc.error.code).toBe(-1213);
  });

  test('closing more than the position is refused; no position → -3145', () => {
    const { ex } = engine();
    standardBook(ex);
    const none = ex.placeOrder(ACCOUNT, order({ side: 'SELL', positionSide: 'LONG', price: d('100000'), quantity: d('1') }));
    expect(none.ok ? 0 : none.error.code).toBe(-3145);
    placed(ex.placeOrder(ACCOUNT, order({ side: 'BUY', price: d('100000'), quantity: d('2'), timeInForce: 'IOC' })));
    const tooMuch = ex.placeOrder(ACCOUNT, order({ side: 'SELL', positionSide: 'LONG', price: d('100001'), quantity: d('3') }));
    expect(tooMuch.ok ? 0 : tooMuch.error.code).toBe(-2010);
  });
});
