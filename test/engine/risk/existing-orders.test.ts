import { dec } from '../../../src/core/decimal.js';
import { BTC, ETH, RiskHarness, d } from './risk-harness.js';

function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function code(result: { ok: true } | { ok: false; error: { code: string } }): string {
  return result.ok ? 'ok' : result.error.code;
}

describe('risk engine: cancels and ownership', () => {
  it('cancel-all cancels only this strategy’s orders on that symbol (and its algo orders with includeAlgo)', () => {
    const h = new RiskHarness();
    h.order('s1', 'a1', { side: 'BUY', price: '99000', quantity: '1' });
    h.order('s1', 'a2', { side: 'SELL', price: '101000', quantity: '1' });
    h.order('s1', 'a-eth', { symbol: ETH, side: 'BUY', price: '2900', quantity: '1' });
    h.order('s2', 'b1', { side: 'BUY', price: '99000', quantity: '1' });
    h.order(undefined, 'by-hand', { side: 'BUY', price: '98000', quantity: '1' });
    h.algo('s1', 'a-plan', { side: 'BUY', positionSide: 'LONG', triggerPrice: '101000', quantity: '1' });
    h.algo('s2', 'b-plan', { side: 'BUY', positionSide: 'LONG', triggerPrice: '101000', quantity: '1' });
    expect(plain(h.approve('s1', { type: 'cancel-all', symbol: BTC }))).toEqual([
      { type: 'cancel-order', symbol: BTC, clientOrderId: 'a1' },
      { type: 'cancel-order', symbol: BTC, clientOrderId: 'a2' },
    ]);
    expect(plain(h.approve('s1', { type: 'cancel-all', symbol: BTC, includeAlgo: true }))).toEqual([
      { type: 'cancel-order', symbol: BTC, clientOrderId: 'a1' },
      { type: 'cancel-order', symbol: BTC, clientOrderId: 'a2' },
      { type: 'cancel-algo', symbol: BTC, clientOrderId: 'a-plan' },
    ]);
    expect(h.approve('s2', { type: 'cancel-all', symbol: ETH })).toEqual([]);
  });

  it('cancel: own → command; another strategy’s → NOT_OWNER; unknown or finished → UNKNOWN_ORDER', () => {
    const h = new RiskHarness();
    h.order('s1', 'mine', { side: 'BUY', price: '99000', quantity: '1' });
    h.order('s2', 'theirs', { side: 'BUY', price: '99000', quantity: '1' });
    h.order('s1', 'done', { side: 'BUY', price: '99000', quantity: '1', status: 'FILLED' });
    h.pending('s1', 'in-flight');
    h.algo('s1', 'my-plan', { side: 'BUY', positionSide: 'LONG', triggerPrice: '101000', quantity: '1' });
    expect(plain(h.approve('s1', { type: 'cancel', clientOrderId: 'mine' }))).toEqual([{ type: 'cancel-order', symbol: BTC, clientOrderId: 'mine' }]);
    expect(plain(h.approve('s1', { type: 'cancel-algo', clientOrderId: 'my-plan' }))).toEqual([{ type: 'cancel-algo', symbol: BTC, clientOrderId: 'my-plan' }]);
    expect(h.denied('s1', { type: 'cancel', clientOrderId: 'theirs' })).toBe('NOT_OWNER');
    expect(h.denied('s1', { type: 'cancel', clientOrderId: 'nope' })).toBe('UNKNOWN_ORDER');
    expect(h.denied('s1', { type: 'cancel', clientOrderId: 'done' })).toBe('UNKNOWN_ORDER');
    expect(h.denied('s1', { type: 'cancel', clientOrderId: 'in-flight' })).toBe('UNKNOWN_ORDER');
  });

  it('cancels go through a halt, the kill switch, any symbol status and any limit', () => {
    const h = new RiskHarness({ global: { maxOrdersPerMinute: 0, maxOpenOrders: 0 } });
    h.order('s1', 'mine', { side: 'BUY', price: '99000', quantity: '1' });
    h.apply({ type: 'instrument.status', time: h.clock.now(), symbol: BTC, from: 'TRADING', to: 'OFFLINE' });
    h.engine.halt('s1');
    h.engine.engage('test');
    expect(code(h.check('s1', { type: 'cancel', clientOrderId: 'mine' }))).toBe('ok');
    expect(code(h.check('s1', { type: 'cancel-all', symbol: BTC }))).toBe('ok');
  });
});

describe('risk engine: modify', () => {
  it('quantizes for the order’s side and keeps what is not changed', () => {
    const h = new RiskHarness();
    h.order('s1', 'b', { side: 'BUY', price: '99000', quantity: '3' });
    h.order('s1', 's', { side: 'SELL', price: '101000', quantity: '3' });
    expect(plain(h.approve('s1', { type: 'modify', clientOrderId: 'b', price: d('99100.09') }))).toEqual([{ type: 'modify-order', symbol: BTC, clientOrderId: 'b', price: '99100' }]);
    expect(plain(h.approve('s1', { type: 'modify', clientOrderId: 's', price: d('100900.01'), quantity: d('4.7') }))).toEqual([
      { type: 'modify-order', symbol: BTC, clientOrderId: 's', price: '100900.1', quantity: '4' },
    ]);
    expect(h.approve('s1', { type: 'modify', clientOrderId: 'b' })).toEqual([]);
  });

  it.each([
    ['another strategy’s order', 'theirs', {}, 'NOT_OWNER'],
    ['an unknown order', 'nope', {}, 'UNKNOWN_ORDER'],
    ['a plan order', 'plan', {}, 'UNKNOWN_ORDER'],
    ['a NaN price', 'b', { price: dec(NaN) }, 'INVALID_PRICE'],
    ['a negative quantity', 'b', { quantity: dec(-2) }, 'INVALID_QUANTITY'],
    ['a quantity not above the filled part', 'b', { quantity: d(1) }, 'INVALID_QUANTITY'],
    ['a price outside the exchange band', 'b', { price: d(111000) }, 'PRICE_BAND'],
    ['a quantity over maxQty', 'b', { quantity: d(20000) }, 'QTY_FILTER'],
  ])('%s → %s', (_what, clientOrderId, change, expected) => {
    const h = new RiskHarness();
    h.order('s1', 'b', { side: 'BUY', price: '99000', quantity: '3', filledQty: '1', status: 'PARTIALLY_FILLED' });
    h.order('s2', 'theirs', { side: 'BUY', price: '99000', quantity: '1' });
    h.algo('s1', 'plan', { side: 'BUY', positionSide: 'LONG', triggerPrice: '101000', quantity: '1' });
    expect(h.denied('s1', { type: 'modify', clientOrderId, ...change })).toBe(expected);
  });

  it('growing an opening order is checked against the limits without counting the order twice', () => {
    const h = new RiskHarness({ strategies: { s1: { limits: { maxPosition: d(5) } } } });
    h.order('s1', 'b', { side: 'BUY', price: '99000', quantity: '3' });
    expect(code(h.check('s1', { type: 'modify', clientOrderId: 'b', quantity: d(5) }))).toBe('ok');
    expect(code(h.check('s1', { type: 'modify', clientOrderId: 'b', quantity: d(6) }))).toBe('MAX_POSITION');
  });

  it('an opening order cannot be modified under the kill switch or a halt; a closing one can', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '3', '90000');
    h.order('s1', 'open', { side: 'BUY', price: '99000', quantity: '3' });
    h.order('s1', 'close', { side: 'SELL', positionSide: 'LONG', price: '101000', quantity: '3' });
    h.engine.halt('s1');
    expect(code(h.check('s1', { type: 'modify', clientOrderId: 'open', price: d(99500) }))).toBe('STRATEGY_HALTED');
    h.engine.resume('s1');
    h.engine.engage('by hand');
    expect(code(h.check('s1', { type: 'modify', clientOrderId: 'open', price: d(99500) }))).toBe('KILL_SWITCH');
    expect(code(h.check('s1', { type: 'modify', clientOrderId: 'close', price: d(100500) }))).toBe('ok');
  });
});

describe('risk engine: TP/SL and algo orders', () => {
  it('tpsl on a LONG becomes a closing SELL plan order for the whole position', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '4', '90000');
    expect(plain(h.approve('s1', { type: 'tpsl', key: 'sl', symbol: BTC, positionSide: 'LONG', kind: 'STOP_LOSS', triggerPrice: d('95000.04') }))).toEqual([
      {
        type: 'place-algo',
        clientOrderId: 's1-sl',
        symbol: BTC,
        side: 'SELL',
        positionSide: 'LONG',
        orderType: 'MARKET',
        quantity: '4',
        timeInForce: 'GTC',
        triggerPrice: '95000',
        triggerBy: 'CONTRACT_PRICE',
      },
    ]);
  });

  it('tpsl on a SHORT is a BUY; a given quantity is quantized and capped at the position; a limit price rounds down', () => {
    const h = new RiskHarness();
    h.position(BTC, 'SHORT', '4', '110000');
    const [partial] = h.approve('s1', { type: 'tpsl', symbol: BTC, positionSide: 'SHORT', kind: 'TAKE_PROFIT', triggerPrice: d(95000), limitPrice: d('94999.99'), quantity: d('2.5'), triggerBy: 'MARK_PRICE' });
    expect(plain(partial)).toMatchObject({ side: 'BUY', positionSide: 'SHORT', orderType: 'LIMIT', price: '94999.9', quantity: '2', triggerBy: 'MARK_PRICE' });
    const [capped] = h.approve('s1', { type: 'tpsl', symbol: BTC, positionSide: 'SHORT', kind: 'TAKE_PROFIT', triggerPrice: d(95000), quantity: d(9) });
    expect(plain(capped)).toMatchObject({ quantity: '4' });
  });

  it('tpsl while flat → NO_POSITION; tpsl goes through the kill switch and a halt', () => {
    const h = new RiskHarness();
    const intent = { type: 'tpsl', symbol: BTC, positionSide: 'LONG', kind: 'STOP_LOSS', triggerPrice: d(95000) } as const;
    expect(h.denied('s1', intent)).toBe('NO_POSITION');
    h.position(BTC, 'LONG', '1', '90000');
    h.engine.engage('by hand');
    h.engine.halt('s1');
    expect(code(h.check('s1', intent))).toBe('ok');
  });

  it('modify-algo takes the kind from the cached order and validates a trailing stop', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '2', '90000');
    h.algo('s1', 'sl', { kind: 'STOP_LOSS', side: 'SELL', positionSide: 'LONG', triggerPrice: '95000', quantity: '0' });
    h.algo('s1', 'plan', { side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', triggerPrice: '101000', price: '101100', quantity: '1' });
    expect(plain(h.approve('s1', { type: 'modify-algo', clientOrderId: 'sl', trailing: { activePrice: d('96000.04'), callbackType: 'RATE', callbackValue: d('0.01') } }))).toEqual([
      { type: 'modify-algo', symbol: BTC, clientOrderId: 'sl', kind: 'STOP_LOSS', trailing: { activePrice: '96000', callbackType: 'RATE', callbackValue: '0.01' } },
    ]);
    expect(plain(h.approve('s1', { type: 'modify-algo', clientOrderId: 'plan', triggerPrice: d('101500.06'), quantity: d(2) }))).toEqual([
      { type: 'modify-algo', symbol: BTC, clientOrderId: 'plan', kind: 'PLAN', triggerPrice: '101500.1', quantity: '2' },
    ]);
    expect(h.denied('s1', { type: 'modify-algo', clientOrderId: 'sl', trailing: { callbackType: 'RATE', callbackValue: d(2) } })).toBe('INVALID_PRICE');
    expect(h.denied('s1', { type: 'modify-algo', clientOrderId: 'plan', trailing: { callbackType: 'RATE', callbackValue: d('0.01') } })).toBe('INVALID_PRICE');
    expect(h.denied('s1', { type: 'modify-algo', clientOrderId: 'sl', triggerPrice: dec(Infinity) })).toBe('INVALID_PRICE');
  });

  it('modify-algo of a regular order or of another strategy’s algo order is refused', () => {
    const h = new RiskHarness();
    h.order('s1', 'reg', { side: 'BUY', price: '99000', quantity: '1' });
    h.algo('s2', 'theirs', { side: 'BUY', positionSide: 'LONG', triggerPrice: '101000', quantity: '1' });
    expect(h.denied('s1', { type: 'modify-algo', clientOrderId: 'reg', triggerPrice: d(1) })).toBe('UNKNOWN_ORDER');
    expect(h.denied('s1', { type: 'modify-algo', clientOrderId: 'theirs', triggerPrice: d(1) })).toBe('NOT_OWNER');
  });
});
