import type { PlaceIntent } from '../../../src/model/intents.js';
import { BTC, ETH, RiskHarness, btc, d } from './risk-harness.js';

function buy(quantity: string, price = '100000', extra: Partial<PlaceIntent> = {}): PlaceIntent {
  return { type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: d(price), quantity: d(quantity), ...extra };
}

const closeLong: PlaceIntent = { type: 'place', symbol: BTC, side: 'SELL', orderType: 'MARKET', closePosition: true };

function code(result: { ok: true } | { ok: false; error: { code: string } }): string {
  return result.ok ? 'ok' : result.error.code;
}

describe('risk engine: MAX_POSITION', () => {
  it('counts the position, the strategy’s open opening orders (remaining) and this order', () => {
    const h = new RiskHarness({ strategies: { s1: { limits: { maxPosition: d(6) } }, s2: {} } });
    h.position(BTC, 'LONG', '2', '90000');
    h.order('s1', 'o1', { side: 'BUY', price: '99000', quantity: '3', filledQty: '1', status: 'PARTIALLY_FILLED' });
    h.algo('s1', 'p1', { side: 'BUY', positionSide: 'LONG', triggerPrice: '101000', quantity: '1' });
    expect(code(h.check('s1', buy('1')))).toBe('ok');
    expect(code(h.check('s1', buy('2')))).toBe('MAX_POSITION');
  });

  it('ignores the other side, closing orders and other strategies’ orders (for a strategy limit)', () => {
    const h = new RiskHarness({ strategies: { s1: { limits: { maxPosition: d(3) } }, s2: {} } });
    h.position(BTC, 'SHORT', '50', '90000');
    h.order('s1', 'tp', { side: 'SELL', positionSide: 'LONG', price: '120000', quantity: '9' });
    h.order('s2', 'other', { side: 'BUY', price: '99000', quantity: '9' });
    expect(code(h.check('s1', buy('3')))).toBe('ok');
  });

  it('the global limit counts every strategy’s orders together', () => {
    const h = new RiskHarness({ global: { maxPosition: d(5) } });
    h.order('s2', 'other', { side: 'BUY', price: '99000', quantity: '3' });
    expect(code(h.check('s1', buy('2')))).toBe('ok');
    expect(code(h.check('s1', buy('3')))).toBe('MAX_POSITION');
  });

  it('closing orders are never held back by it', () => {
    const h = new RiskHarness({ global: { maxPosition: d(1) }, strategies: { s1: { limits: { maxPosition: d(1) } } } });
    h.position(BTC, 'LONG', '10', '90000');
    expect(code(h.check('s1', closeLong))).toBe('ok');
  });
});

describe('risk engine: MAX_NOTIONAL', () => {
  it('values position + orders + this order at mark × multiplier, whatever the limit price', () => {
    const h = new RiskHarness({ strategies: { s1: { limits: { maxNotional: d(1000) } } } });
    h.position(BTC, 'LONG', '5', '90000');
    expect(code(h.check('s1', buy('5', '50000')))).toBe('ok');
    expect(code(h.check('s1', buy('6', '50000')))).toBe('MAX_NOTIONAL');
    h.mark(BTC, '80000');
    expect(code(h.check('s1', buy('7', '80000')))).toBe('ok');
  });

  it('without a mark price, a LIMIT order is valued at its price and a MARKET order is refused', () => {
    const h = new RiskHarness({ marks: {}, global: { maxNotional: d(1000) } });
    expect(code(h.check('s1', buy('10', '100000')))).toBe('ok');
    expect(code(h.check('s1', buy('11', '100000')))).toBe('MAX_NOTIONAL');
    expect(code(h.check('s1', { type: 'place', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: d(1) }))).toBe('NO_MARK_PRICE');
  });
});

describe('risk engine: MAX_LEVERAGE', () => {
  it('total position notional incl. this order over wallet + unrealized', () => {
    const h = new RiskHarness({ global: { maxLeverage: d(2) } });
    h.position(BTC, 'LONG', '150', '90000'); // 15000
    h.position(ETH, 'SHORT', '100', '3100'); // 3000
    expect(code(h.check('s1', buy('20')))).toBe('ok'); // 20000 / 10000
    expect(code(h.check('s1', buy('21')))).toBe('MAX_LEVERAGE');
    h.balance('10000', '-1000');
    expect(code(h.check('s1', buy('1')))).toBe('MAX_LEVERAGE'); // 18100 / 9000
  });

  it('a strategy’s leverage counts the positions of its own symbols', () => {
    const h = new RiskHarness({ strategies: { s1: { symbols: [BTC], limits: { maxLeverage: d(2) } } } });
    h.position(ETH, 'SHORT', '500', '3100'); // 15000, not s1's symbol
    expect(code(h.check('s1', buy('200')))).toBe('ok');
    expect(code(h.check('s1', buy('201')))).toBe('MAX_LEVERAGE');
  });

  it('unknown balance → NOT_READY; no equity → MAX_LEVERAGE; closing still goes', () => {
    expect(code(new RiskHarness({ wallet: null, global: { maxLeverage: d(5) } }).check('s1', buy('1')))).toBe('NOT_READY');
    const h = new RiskHarness({ wallet: '0', global: { maxLeverage: d(5) } });
    expect(code(h.check('s1', buy('1')))).toBe('MAX_LEVERAGE');
    h.position(BTC, 'LONG', '1', '90000');
    expect(code(h.check('s1', closeLong))).toBe('ok');
  });
});

describe('risk engine: MAX_OPEN_ORDERS', () => {
  it('a strategy limit counts its regular and plan orders, submitted ones included', () => {
    const h = new RiskHarness({ strategies: { s1: { limits: { maxOpenOrders: 3 } }, s2: {} } });
    h.order('s1', 'o1', { side: 'BUY', price: '99000', quantity: '1' });
    h.algo('s1', 'p1', { side: 'BUY', positionSide: 'LONG', triggerPrice: '101000', quantity: '1' });
    expect(code(h.check('s1', buy('1')))).toBe('ok');
    h.pending('s1', 'on-its-way');
    expect(code(h.check('s1', buy('1')))).toBe('MAX_OPEN_ORDERS');
    expect(code(h.check('s2', buy('1')))).toBe('ok');
    h.position(BTC, 'LONG', '1', '90000');
    expect(code(h.check('s1', closeLong))).toBe('ok');
  });

  it('the global limit counts all open orders of the account, hand-placed ones too', () => {
    const h = new RiskHarness({ global: { maxOpenOrders: 3 } });
    h.order('s1', 'o1', { side: 'BUY', price: '99000', quantity: '1' });
    h.order('s2', 'o2', { side: 'BUY', price: '99000', quantity: '1' });
    expect(code(h.check('s1', buy('1')))).toBe('ok');
    h.order(undefined, 'by-hand', { side: 'SELL', price: '101000', quantity: '1' });
    expect(code(h.check('s1', buy('1')))).toBe('MAX_OPEN_ORDERS');
  });

  it('the global limit counts each open order once: the cache’s regular and conditional ones and those on their way', () => {
    const h = new RiskHarness({ global: { maxOpenOrders: 5 } });
    h.order('s1', 'o1', { side: 'BUY', price: '99000', quantity: '1' });
    h.algo('s2', 'p1', { side: 'BUY', positionSide: 'LONG', triggerPrice: '101000', quantity: '1' });
    h.order(undefined, 'by-hand', { side: 'SELL', price: '101000', quantity: '1' });
    h.pending('s1', 'on-its-way');
    h.order('s2', 'filled', { side: 'BUY', price: '99000', quantity: '1', status: 'FILLED' });
    expect(code(h.check('s1', buy('1')))).toBe('ok');
    h.pending('s2', 'also-on-its-way');
    expect(code(h.check('s1', buy('1')))).toBe('MAX_OPEN_ORDERS');
  });

  it('the instrument’s limits apply to every order (the exchange would refuse it anyway)', () => {
    const h = new RiskHarness({ instruments: [btc({ maxOpenOrders: 2, maxOpenAlgoOrders: 1 })] });
    h.position(BTC, 'LONG', '5', '90000');
    h.order('s2', 'o1', { side: 'BUY', price: '99000', quantity: '1' });
    expect(code(h.check('s1', buy('1')))).toBe('ok');
    h.order('s2', 'o2', { side: 'BUY', price: '99000', quantity: '1' });
    expect(code(h.check('s1', buy('1')))).toBe('MAX_OPEN_ORDERS');
    expect(code(h.check('s1', closeLong))).toBe('MAX_OPEN_ORDERS');
    const plan = { type: 'plan', symbol: BTC, side: 'BUY', triggerPrice: d(101000), orderType: 'MARKET', quantity: d(1) } as const;
    expect(code(h.check('s1', plan))).toBe('ok');
    h.algo('s2', 'p1', { side: 'BUY', positionSide: 'LONG', triggerPrice: '101000', quantity: '1' });
    expect(code(h.check('s1', plan))).toBe('MAX_OPEN_ORDERS');
  });
});

describe('risk engine: ORDER_RATE (sliding 60 s window, virtual time)', () => {
  it('counts approved placing and modifying commands; the oldest leaves the window after 60 s', () => {
    const h = new RiskHarness({ strategies: { s1: { limits: { maxOrdersPerMinute: 3 } }, s2: {} } });
    const t0 = h.clock.now();
    expect(code(h.check('s1', buy('1')))).toBe('ok');
    h.clock.advanceBy(10_000);
    expect(code(h.check('s1', buy('1')))).toBe('ok');
    h.order('s1', 'o1', { side: 'BUY', price: '99000', quantity: '1' });
    h.clock.advanceBy(10_000);
    expect(code(h.check('s1', { type: 'modify', clientOrderId: 'o1', price: d(99500) }))).toBe('ok');
    expect(code(h.check('s1', buy('1')))).toBe('ORDER_RATE');
    expect(code(h.check('s1', { type: 'modify', clientOrderId: 'o1', price: d(99600) }))).toBe('ORDER_RATE');
    expect(code(h.check('s2', buy('1')))).toBe('ok');
    h.clock.advanceTo(t0 + 59_999);
    expect(code(h.check('s1', buy('1')))).toBe('ORDER_RATE');
    h.clock.advanceTo(t0 + 60_000);
    expect(code(h.check('s1', buy('1')))).toBe('ok');
    expect(code(h.check('s1', buy('1')))).toBe('ORDER_RATE');
  });

  it('denied intents do not count', () => {
    const h = new RiskHarness({ strategies: { s1: { limits: { maxOrdersPerMinute: 1 } } } });
    expect(code(h.check('s1', buy('NaN')))).toBe('INVALID_QUANTITY');
    expect(code(h.check('s1', buy('1')))).toBe('ok');
  });

  it('the global limit counts all strategies; closing orders and cancels still go', () => {
    const h = new RiskHarness({ global: { maxOrdersPerMinute: 2 } });
    expect(code(h.check('s1', buy('1')))).toBe('ok');
    expect(code(h.check('s2', buy('1')))).toBe('ok');
    expect(code(h.check('s1', buy('1')))).toBe('ORDER_RATE');
    h.position(BTC, 'LONG', '3', '90000');
    h.order('s1', 'o1', { side: 'BUY', price: '99000', quantity: '1' });
    expect(code(h.check('s1', closeLong))).toBe('ok');
    expect(code(h.check('s1', { type: 'cancel', clientOrderId: 'o1' }))).toBe('ok');
  });
});

describe('risk engine: configured price band', () => {
  it.each([
    ['BUY 1% above mark', 'BUY', '101000', 'ok'],
    ['BUY just past 1%', 'BUY', '101000.1', 'PRICE_BAND'],
    ['SELL 1% below mark', 'SELL', '99000', 'ok'],
    ['SELL just past 1%', 'SELL', '98999.9', 'PRICE_BAND'],
    ['BUY far below mark', 'BUY', '90000', 'PRICE_BAND'],
  ] as const)('priceBandPct 1: %s → %s', (_what, side, price, expected) => {
    const h = new RiskHarness({ strategies: { s1: { limits: { priceBandPct: d(1) } } } });
    expect(code(h.check('s1', { type: 'place', symbol: BTC, side, orderType: 'LIMIT', price: d(price), quantity: d(1) }))).toBe(expected);
  });

  it('the global band applies to every strategy', () => {
    const h = new RiskHarness({ global: { priceBandPct: d('0.5') } });
    expect(code(h.check('s2', buy('1', '100600')))).toBe('PRICE_BAND');
    expect(code(h.check('s2', buy('1', '100500')))).toBe('ok');
  });

  it('without a mark price: opening orders → NO_MARK_PRICE, closing orders go', () => {
    const h = new RiskHarness({ marks: {}, global: { priceBandPct: d(1) } });
    expect(code(h.check('s1', buy('1')))).toBe('NO_MARK_PRICE');
    expect(code(h.check('s1', { type: 'place', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: d(1) }))).toBe('NO_MARK_PRICE');
    h.position(BTC, 'LONG', '3', '90000');
    expect(code(h.check('s1', closeLong))).toBe('ok');
    expect(code(h.check('s1', { type: 'place', symbol: BTC, side: 'SELL', orderType: 'LIMIT', price: d(1000), quantity: d(1), reduceOnly: true }))).toBe('ok');
  });
});
