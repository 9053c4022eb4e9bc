import type { EndpointName } from '../../../src/protocol/endpoints.js';
import { PARENT, RouteHarness } from './harness.js';

/**
 * Document 000 Conventions, "v2 wire format": 64-bit integers (ids, timestamps) are sent as JSON strings.
 * Every v2 reply of an account with orders, plan and TP/SL rows, fills and flows is walked: no number
 * there may be 64-bit sized (an epoch millisecond is ~1.7e12).
 */
const LARGE = 2 ** 31;

function numbersTooLarge(value: unknown, path: string, found: string[]): string[] {
  if (typeof value === 'number' && Math.abs(value) >= LARGE) found.push(`${path}=${value}`);
  else if (Array.isArray(value)) value.forEach((item, i) => numbersTooLarge(item, `${path}[${i}]`, found));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) numbersTooLarge(item, `${path}.${key}`, found);
  return found;
}

describe('v2 replies send 64-bit times and ids as strings (document 000)', () => {
  it('orders, algo rows, user trades and balance flows', async () => {
    const h = new RouteHarness();
    const move = { fromUid: PARENT, toUid: PARENT, fromAccountType: 'FUTURES', toAccountType: 'MAIN', quantity: '25', coin: 'USDT' };
    await h.data('subAccountTransfer', { params: move });
    await h.data('orderV2Create', { json: { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'MARKET', newClientOrderId: 'long', quantity: '4', stopLoss: '95000' } });
    await h.data('orderV2Create', { json: { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'rest', quantity: '1', price: '99000' } });
    await h.data('algoOrderCreate', { json: { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: '101000', newClientOrderId: 'p1', quantity: '2' } });
    await h.data('algoOrderCreate', { json: { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'STOP_MARKET', stopPrice: '102000', newClientOrderId: 'p2', quantity: '2' } });
    await h.data('algoOrderCancel', { params: { origClientOrderId: 'p2' } });
    const calls: [EndpointName, Record<string, string>][] = [
      ['openOrdersV2', {}],
      ['historyOrdersV2', { symbol: 'BTC-SWAP-USDT', startTime: '0' }],
      ['userTradesV2', { symbol: 'BTC-SWAP-USDT' }],
      ['openAlgoOrders', { stopCategory: 'STOP' }],
      ['openAlgoOrders', { stopCategory: 'STOP_PROFIT_LOSS' }],
      ['historyAlgoOrders', { stopCategory: 'STOP' }],
      ['balanceFlowV2', { accountType: 'MAIN' }],
      ['balanceFlowV2', { accountType: 'FUTURES' }],
    ];
    for (const [name, params] of calls) {
      const data = await h.data(name, { params });
      expect(Array.isArray(data) && data.length > 0 ? name : `${name}: empty`).toBe(name);
      expect(numbersTooLarge(data, name, [])).toEqual([]);
    }
  });
});
