import type { Decimal } from '../../../src/core/decimal.js';
import { dec } from '../../../src/core/decimal.js';
import type { SymbolStatus } from '../../../src/model/instrument.js';
import type { PlaceIntent } from '../../../src/model/intents.js';
import { BTC, ETH, RiskHarness, btc, d, eth } from './risk-harness.js';

/** Commands as plain JSON (decimals as text) for comparison. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function limitBuy(price: string, quantity: string, extra: Partial<PlaceIntent> = {}): PlaceIntent {
  return { type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: d(price), quantity: d(quantity), ...extra };
}

describe('risk engine: new orders are resolved and quantized', () => {
  it('defaults BUY to LONG and GTC, rounds a BUY price down and derives the client order id', () => {
    const h = new RiskHarness();
    expect(plain(h.approve('s1', limitBuy('99999.97', '3.9')))).toEqual([
      { type: 'place-order', clientOrderId: 's1-1', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price: '99999.9', quantity: '3', timeInForce: 'GTC' },
    ]);
  });

  it('defaults SELL to SHORT and rounds a SELL price up; a key names the order', () => {
    const h = new RiskHarness();
    const [command] = h.approve('s1', { type: 'place', key: 'grid-1', symbol: BTC, side: 'SELL', orderType: 'LIMIT', price: d('100000.01'), quantity: d(2) });
    expect(plain(command)).toMatchObject({ clientOrderId: 's1-grid-1', side: 'SELL', positionSide: 'SHORT', price: '100000.1', quantity: '2' });
  });

  it('a MARKET order carries no price and defaults to IOC', () => {
    const h = new RiskHarness();
    const [command] = h.approve('s1', { type: 'place', symbol: BTC, side: 'BUY', orderType: 'MARKET', price: d(5), quantity: d(1) });
    expect(plain(command)).toEqual({ type: 'place-order', clientOrderId: 's1-1', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', quantity: '1', timeInForce: 'IOC' });
  });

  it('closePosition closes the whole position of the resolved side (SELL → LONG)', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '5', '90000');
    const [command] = h.approve('s1', { type: 'place', symbol: BTC, side: 'SELL', orderType: 'MARKET', closePosition: true, quantity: d(1) });
    expect(plain(command)).toMatchObject({ side: 'SELL', positionSide: 'LONG', quantity: '5' });
  });

  it('reduceOnly caps the quantity at the position (BUY → SHORT)', () => {
    const h = new RiskHarness();
    h.position(BTC, 'SHORT', '3', '90000');
    const [command] = h.approve('s1', { type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: d(100000), quantity: d(10), reduceOnly: true });
    expect(plain(command)).toMatchObject({ side: 'BUY', positionSide: 'SHORT', quantity: '3' });
  });

  it('reduceOnly without a quantity takes the whole position', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '4', '90000');
    const [command] = h.approve('s1', { type: 'place', symbol: BTC, side: 'SELL', orderType: 'MARKET', reduceOnly: true });
    expect(plain(command)).toMatchObject({ positionSide: 'LONG', quantity: '4' });
  });

  it.each<[string, PlaceIntent]>([
    ['closePosition while flat', { type: 'place', symbol: BTC, side: 'SELL', orderType: 'MARKET', closePosition: true }],
    ['reduceOnly while flat', { type: 'place', symbol: BTC, side: 'BUY', orderType: 'MARKET', reduceOnly: true, quantity: d(1) }],
    ['an explicit closing side while flat', { type: 'place', symbol: BTC, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', quantity: d(1) }],
    ['reduceOnly on a side that would open', { type: 'place', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', reduceOnly: true, quantity: d(1) }],
  ])('%s → NO_POSITION', (_what, intent) => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '0', '0');
    expect(h.denied('s1', intent)).toBe('NO_POSITION');
  });

  it('attached TP/SL are quantized: triggers to the nearest tick, limit prices for the closing side', () => {
    const h = new RiskHarness();
    const [command] = h.approve('s1', limitBuy('100000', '1', { takeProfit: { triggerPrice: d('105000.06'), limitPrice: d('105000.01') }, stopLoss: { triggerPrice: d('95000.04'), triggerBy: 'MARK_PRICE' } }));
    expect(plain(command)).toMatchObject({
      takeProfit: { triggerPrice: '105000.1', triggerBy: 'CONTRACT_PRICE', limitPrice: '105000.1' },
      stopLoss: { triggerPrice: '95000', triggerBy: 'MARK_PRICE' },
    });
  });

  it('a plan order becomes a place-algo command with a quantized trigger', () => {
    const h = new RiskHarness();
    const result = h.approve('s1', { type: 'plan', key: 'breakout', symbol: BTC, side: 'BUY', triggerPrice: d('101000.04'), orderType: 'LIMIT', price: d('101050.09'), quantity: d('2.5') });
    expect(plain(result)).toEqual([
      {
        type: 'place-algo',
        clientOrderId: 's1-breakout',
        symbol: BTC,
        side: 'BUY',
        positionSide: 'LONG',
        orderType: 'LIMIT',
        price: '101050',
        quantity: '2',
        timeInForce: 'GTC',
        triggerPrice: '101000',
        triggerBy: 'CONTRACT_PRICE',
      },
    ]);
  });

  it('a reducing plan order needs a position', () => {
    const h = new RiskHarness();
    expect(h.denied('s1', { type: 'plan', symbol: BTC, side: 'SELL', reduceOnly: true, triggerPrice: d(90000), orderType: 'MARKET', quantity: d(1) })).toBe('NO_POSITION');
  });
});

describe('risk engine: numbers from strategies are validated', () => {
  const cases: Array<[string, unknown]> = [
    ['NaN', dec(NaN)],
    ['Infinity', dec(Infinity)],
    ['negative', dec(-1)],
    ['zero', dec(0)],
    ['absurd', dec('1e40')],
    ['a JS number', 5],
    ['missing', undefined],
  ];

  it.each(cases)('a %s quantity → INVALID_QUANTITY', (_what, quantity) => {
    const h = new RiskHarness();
    expect(h.denied('s1', { ...limitBuy('100000', '1'), quantity: quantity as Decimal })).toBe('INVALID_QUANTITY');
  });

  it('a quantity below one step → INVALID_QUANTITY', () => {
    expect(new RiskHarness().denied('s1', limitBuy('100000', '0.9'))).toBe('INVALID_QUANTITY');
  });

  it.each(cases)('a %s LIMIT price → INVALID_PRICE', (_what, price) => {
    const h = new RiskHarness();
    expect(h.denied('s1', { ...limitBuy('100000', '1'), price: price as Decimal })).toBe('INVALID_PRICE');
  });

  it('a BUY price below one tick → INVALID_PRICE', () => {
    expect(new RiskHarness().denied('s1', limitBuy('0.05', '1'))).toBe('INVALID_PRICE');
  });

  it.each(cases)('a %s trigger price → INVALID_PRICE', (_what, triggerPrice) => {
    const h = new RiskHarness();
    expect(h.denied('s1', { type: 'plan', symbol: BTC, side: 'BUY', triggerPrice: triggerPrice as Decimal, orderType: 'MARKET', quantity: d(1) })).toBe('INVALID_PRICE');
  });

  it('a closing order validates its quantity too', () => {
    const h = new RiskHarness();
    h.position(BTC, 'LONG', '5', '90000');
    expect(h.denied('s1', { type: 'place', symbol: BTC, side: 'SELL', orderType: 'MARKET', reduceOnly: true, quantity: dec(NaN) })).toBe('INVALID_QUANTITY');
  });
});

describe('risk engine: instrument filters', () => {
  it.each<[string, Partial<Parameters<typeof btc>[0]>, PlaceIntent, string]>([
    ['price under minPrice', { minPrice: d(1000) }, limitBuy('999', '1'), 'PRICE_FILTER'],
    ['price over maxPrice', { maxPrice: d(100000) }, limitBuy('100000.1', '1'), 'PRICE_FILTER'],
    ['quantity under minQty', { minQty: d(5) }, limitBuy('100000', '4'), 'QTY_FILTER'],
    ['quantity over maxQty', { maxQty: d(100) }, limitBuy('100000', '101'), 'QTY_FILTER'],
    ['notional under minNotional', { minNotional: d(200) }, limitBuy('100000', '1'), 'NOTIONAL_FILTER'],
    ['notional over maxNotional', { maxNotional: d(1000) }, limitBuy('100000', '11'), 'NOTIONAL_FILTER'],
    ['a trigger under minPrice', { minPrice: d(1000) }, { type: 'place', symbol: BTC, side: 'BUY', orderType: 'LIMIT', price: d(100000), quantity: d(1), stopLoss: { triggerPrice: d(500) } }, 'PRICE_FILTER'],
  ])('%s → %s', (_what, overrides, intent, code) => {
    const h = new RiskHarness({ instruments: [btc(overrides)] });
    expect(h.denied('s1', intent)).toBe(code);
  });

  it.each([
    ['at the minimum price', { minPrice: d(1000) }, limitBuy('1000', '10')],
    ['at minQty', { minQty: d(5) }, limitBuy('100000', '5')],
    ['at minNotional', { minNotional: d(100) }, limitBuy('100000', '1')],
    ['at maxNotional', { maxNotional: d(1000) }, limitBuy('100000', '10')],
  ])('lets through an order %s', (_what, overrides, intent) => {
    const h = new RiskHarness({ instruments: [btc(overrides)] });
    expect(h.check('s1', intent).ok).toBe(true);
  });

  it('a closing order below minNotional still goes (a small remainder must be closable)', () => {
    const h = new RiskHarness({ instruments: [btc({ minNotional: d(200) })] });
    h.position(BTC, 'LONG', '1', '90000');
    expect(h.check('s1', { type: 'place', symbol: BTC, side: 'SELL', orderType: 'MARKET', closePosition: true }).ok).toBe(true);
  });

  it.each([
    ['a BUY above mark × (1 + up)', limitBuy('110000.1', '1'), 'PRICE_BAND'],
    ['a SELL below mark × (1 − down)', { type: 'place', symbol: BTC, side: 'SELL', orderType: 'LIMIT', price: d('89999.9'), quantity: d(1) } as PlaceIntent, 'PRICE_BAND'],
  ])('exchange limit band: %s → %s', (_what, intent, code) => {
    expect(new RiskHarness().denied('s1', intent)).toBe(code);
  });

  it('exchange limit band: the band edges pass; without a mark price the exchange decides', () => {
    expect(new RiskHarness().check('s1', limitBuy('110000', '1')).ok).toBe(true);
    expect(new RiskHarness().check('s1', { type: 'place', symbol: BTC, side: 'SELL', orderType: 'LIMIT', price: d(90000), quantity: d(1) }).ok).toBe(true);
    expect(new RiskHarness({ marks: {} }).check('s1', limitBuy('500000', '1')).ok).toBe(true);
  });

  it('exchange market band: an opening MARKET order whose book lies outside the band → PRICE_BAND', () => {
    const h = new RiskHarness();
    h.book(BTC, '110500', '111000');
    expect(h.denied('s1', { type: 'place', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: d(1) })).toBe('PRICE_BAND');
    h.book(BTC, '100000', '100100');
    expect(h.check('s1', { type: 'place', symbol: BTC, side: 'BUY', orderType: 'MARKET', quantity: d(1) }).ok).toBe(true);
  });
});

describe('risk engine: symbols and their status', () => {
  const statuses: Array<[SymbolStatus, boolean, boolean]> = [
    // status, opening allowed, closing allowed
    ['TRADING', true, true],
    ['ONLINE', true, true],
    ['OPEN_FORBIDDEN', false, true],
    ['CLOSE_FORBIDDEN', true, false],
    ['API_TRADE_FORBIDDEN', false, false],
    ['OFFLINE', false, false],
  ];

  it.each(statuses)('%s: opening allowed %s, closing allowed %s', (status, opening, closing) => {
    const h = new RiskHarness({ instruments: [btc({ status })] });
    h.position(BTC, 'LONG', '2', '90000');
    const open = h.check('s1', limitBuy('100000', '1'));
    const close = h.check('s1', { type: 'place', symbol: BTC, side: 'SELL', orderType: 'MARKET', closePosition: true });
    expect(open.ok ? 'ok' : open.error.code).toBe(opening ? 'ok' : 'SYMBOL_STATUS');
    expect(close.ok ? 'ok' : close.error.code).toBe(closing ? 'ok' : 'SYMBOL_STATUS');
  });

  it('a status change applied to the cache takes effect at once', () => {
    const h = new RiskHarness();
    h.apply({ type: 'instrument.status', time: h.clock.now(), symbol: BTC, from: 'TRADING', to: 'OPEN_FORBIDDEN' });
    expect(h.denied('s1', limitBuy('100000', '1'))).toBe('SYMBOL_STATUS');
  });

  it('a symbol outside the strategy list → NOT_ALLOWED_SYMBOL; an unknown one → UNKNOWN_SYMBOL', () => {
    const h = new RiskHarness({ strategies: { s1: { symbols: [BTC] } } });
    expect(h.denied('s1', { ...limitBuy('3000', '1'), symbol: ETH })).toBe('NOT_ALLOWED_SYMBOL');
    expect(h.denied('s1', { ...limitBuy('1', '1'), symbol: 'XRP-SWAP-USDT' })).toBe('UNKNOWN_SYMBOL');
  });

  it('before instruments are loaded → NOT_READY', () => {
    const h = new RiskHarness({ instruments: [], marks: {} });
    expect(h.denied('s1', limitBuy('100000', '1'))).toBe('NOT_READY');
  });

  it('an ETH order uses its own tick and multiplier', () => {
    const h = new RiskHarness({ instruments: [btc(), eth()] });
    const [command] = h.approve('s1', { type: 'place', symbol: ETH, side: 'SELL', orderType: 'LIMIT', price: d('3000.001'), quantity: d(1) });
    expect(plain(command)).toMatchObject({ price: '3000.01' });
  });

  it('a key that names a live order → DUPLICATE_KEY; a fresh key passes', () => {
    const h = new RiskHarness();
    const [first] = h.approve('s1', limitBuy('100000', '1', { key: 'k' }));
    expect(first).toMatchObject({ clientOrderId: 's1-k' });
    h.pending('s1', 's1-k');
    expect(h.denied('s1', limitBuy('100000', '1', { key: 'k' }))).toBe('DUPLICATE_KEY');
    expect(h.check('s1', limitBuy('100000', '1', { key: 'k2' })).ok).toBe(true);
  });

  it('an unknown strategy id is a bug, not a denial', () => {
    expect(() => new RiskHarness().check('nobody', limitBuy('100000', '1'))).toThrow('UNKNOWN_STRATEGY');
  });
});
