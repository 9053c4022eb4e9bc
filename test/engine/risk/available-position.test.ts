import type { Intent } from '../../../src/model/intents.js';
import { BTC, d, RiskHarness } from './risk-harness.js';

/**
 * A closing regular order must fit in the position's available part: what the account's open closing
 * orders (those on their way included) have not reserved. Above it the exchange answers -2010; the risk
 * engine denies it locally with CLOSE_ABOVE_AVAILABLE. Plan and TP/SL orders reserve nothing.
 */
const closeLong = (quantity: string, extra: Partial<Extract<Intent, { type: 'place' }>> = {}): Intent => ({
  type: 'place',
  symbol: BTC,
  side: 'SELL',
  positionSide: 'LONG',
  orderType: 'LIMIT',
  price: d('101000'),
  quantity: d(quantity),
  timeInForce: 'POST_ONLY',
  reduceOnly: true,
  ...extra,
});

function denial(h: RiskHarness, intent: Intent): { code: string; message: string } {
  const result = h.check('s1', intent);
  if (result.ok) throw new Error(`approved: ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('closing orders and the available position', () => {
  it('a close above what resting closing orders leave is denied with the code; up to it is approved', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '5', '100000');
    h.order('s1', 's1-close-a', { side: 'SELL', positionSide: 'LONG', price: '102000', quantity: '3', filledQty: '1' });
    // 5 held, 2 reserved (3 - 1 filled): 3 available.
    expect(denial(h, closeLong('4'))).toEqual({ code: 'CLOSE_ABOVE_AVAILABLE', message: 'closing 4 of the LONG position on BTC-SWAP-USDT: 3 available (2 of 5 reserved by open closing orders)' });
    expect(h.approve('s1', closeLong('3'))).toHaveLength(1);
  });

  it('another strategy’s closing order and one still on its way count too (the exchange counts the account)', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '4', '100000');
    h.order('s2', 's2-close', { side: 'SELL', positionSide: 'LONG', price: '102000', quantity: '2' });
    h.pending('s1', 's1-on-its-way', { type: 'place-order', clientOrderId: 's1-on-its-way', symbol: BTC, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', quantity: d(1), timeInForce: 'IOC' });
    expect(h.denied('s1', closeLong('2'))).toBe('CLOSE_ABOVE_AVAILABLE');
    expect(h.approve('s1', closeLong('1'))).toHaveLength(1);
    // Opening orders and the other side reserve nothing.
    h.order('s1', 's1-open', { side: 'BUY', positionSide: 'LONG', price: '99000', quantity: '3' });
    h.order('s1', 's1-short-close', { side: 'BUY', positionSide: 'SHORT', price: '99000', quantity: '3' });
    h.pending('s1', 's1-on-its-way', { type: 'place-order', clientOrderId: 's1-on-its-way', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', quantity: d(1), timeInForce: 'IOC' });
    expect(h.approve('s1', closeLong('2'))).toHaveLength(1);
  });

  it('closePosition closes what is available; nothing available is denied', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '5', '100000');
    h.order('s1', 's1-close-a', { side: 'SELL', positionSide: 'LONG', price: '102000', quantity: '2' });
    const [command] = h.approve('s1', { type: 'place', symbol: BTC, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', closePosition: true });
    expect(command).toMatchObject({ type: 'place-order', quantity: d(3) });
    h.order('s1', 's1-close-b', { side: 'SELL', positionSide: 'LONG', price: '103000', quantity: '3' });
    expect(denial(h, { type: 'place', symbol: BTC, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', closePosition: true })).toEqual({
      code: 'CLOSE_ABOVE_AVAILABLE',
      message: 'nothing of the LONG position on BTC-SWAP-USDT is available to close (5 of 5 reserved by open closing orders)',
    });
  });

  it('a closing order may grow into what is available, not beyond; TP/SL and plan orders are not held back', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '5', '100000');
    h.order('s1', 's1-a', { side: 'SELL', positionSide: 'LONG', price: '102000', quantity: '2' });
    h.order('s1', 's1-b', { side: 'SELL', positionSide: 'LONG', price: '103000', quantity: '2' });
    expect(h.approve('s1', { type: 'modify', clientOrderId: 's1-a', quantity: d(3) })).toHaveLength(1);
    expect(h.denied('s1', { type: 'modify', clientOrderId: 's1-a', quantity: d(4) })).toBe('CLOSE_ABOVE_AVAILABLE');
    expect(h.approve('s1', { type: 'tpsl', kind: 'STOP_LOSS', symbol: BTC, positionSide: 'LONG', triggerPrice: d(95000), quantity: d(5) })).toHaveLength(1);
    expect(h.approve('s1', { type: 'plan', symbol: BTC, side: 'SELL', positionSide: 'LONG', reduceOnly: true, triggerPrice: d(90000), orderType: 'MARKET', quantity: d(5) })).toHaveLength(1);
  });
});
