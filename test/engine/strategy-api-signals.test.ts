import { dec } from '../../src/core/decimal.js';
import type { Decimal } from '../../src/core/decimal.js';
import { signalIntents } from '../../src/engine/strategy/api.js';
import type { ExternalSignal } from '../../src/engine/strategy/api.js';
import type { PositionSide } from '../../src/model/instrument.js';

const BTC = 'BTC-SWAP-USDT';
const OPTIONS = { defaultQuantity: dec(1), closeOpposite: true, keyPrefix: 'sigabc' };

function signal(fields: Partial<ExternalSignal>): ExternalSignal {
  return { key: 'k', symbol: BTC, action: 'buy', orderType: 'MARKET', sentAt: 0, ...fields };
}

function holding(long: string, short: string): (symbol: string, side: PositionSide) => Decimal | undefined {
  return (_symbol, side) => dec(side === 'LONG' ? long : short);
}

describe('signalIntents', () => {
  it('a buy while flat opens long with the default quantity, keyed <prefix>-0', () => {
    expect(signalIntents(signal({}), holding('0', '0'), OPTIONS)).toEqual([
      { type: 'place', key: 'sigabc-0', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', quantity: dec(1) },
    ]);
  });

  it('a limit sell while long closes the long first (closeOpposite), then opens short with TP/SL', () => {
    const intents = signalIntents(signal({ action: 'sell', orderType: 'LIMIT', price: dec(100), quantity: dec(3), takeProfit: dec(90), stopLoss: dec(105) }), holding('2', '0'), OPTIONS);
    expect(intents).toEqual([
      { type: 'place', key: 'sigabc-0', symbol: BTC, side: 'SELL', positionSide: 'LONG', orderType: 'MARKET', closePosition: true },
      { type: 'place', key: 'sigabc-1', symbol: BTC, side: 'SELL', positionSide: 'SHORT', orderType: 'LIMIT', quantity: dec(3), price: dec(100), takeProfit: { triggerPrice: dec(90) }, stopLoss: { triggerPrice: dec(105) } },
    ]);
    expect(signalIntents(signal({ action: 'sell' }), holding('2', '0'), { ...OPTIONS, closeOpposite: false })).toHaveLength(1);
  });

  it('marketPosition flat makes a buy the exit of the short, and nothing when there is none', () => {
    expect(signalIntents(signal({ action: 'buy', marketPosition: 'flat' }), holding('0', '4'), OPTIONS)).toEqual([
      { type: 'place', key: 'sigabc-0', symbol: BTC, side: 'BUY', positionSide: 'SHORT', orderType: 'MARKET', closePosition: true },
    ]);
    expect(signalIntents(signal({ action: 'buy', marketPosition: 'flat' }), holding('1', '0'), OPTIONS)).toEqual([]);
  });

  it('close closes both sides that are open; close-long and close-short one', () => {
    expect(signalIntents(signal({ action: 'close' }), holding('1', '1'), OPTIONS).map((i) => (i.type === 'place' ? i.positionSide : ''))).toEqual(['LONG', 'SHORT']);
    expect(signalIntents(signal({ action: 'close-short' }), holding('1', '1'), OPTIONS).map((i) => (i.type === 'place' ? i.positionSide : ''))).toEqual(['SHORT']);
    expect(signalIntents(signal({ action: 'close-long' }), holding('0', '1'), OPTIONS)).toEqual([]);
  });
});
