import { dec } from '../../src/core/decimal.js';
import { InvariantError } from '../../src/core/errors.js';
import type { ExchangeCommand } from '../../src/model/commands.js';
import { decodeCommand, encodeCommand } from '../../src/store/command-codec.js';

/** Every command type, once with every optional field and once with none. */
const commands: readonly ExchangeCommand[] = [
  {
    type: 'place-order', clientOrderId: 'grid-1-000001', symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT',
    price: dec('65000.5'), quantity: dec('0.0000001'), timeInForce: 'POST_ONLY',
    takeProfit: { triggerPrice: dec('70000'), triggerBy: 'MARK_PRICE', limitPrice: dec('69999.9') },
    stopLoss: { triggerPrice: dec('60000'), triggerBy: 'CONTRACT_PRICE' },
  },
  { type: 'place-order', clientOrderId: 'm-2', symbol: 'ETH-SWAP-USDT', side: 'SELL', positionSide: 'SHORT', orderType: 'MARKET', quantity: dec('3'), timeInForce: 'IOC' },
  { type: 'modify-order', symbol: 'BTC-SWAP-USDT', clientOrderId: 'grid-1-000001', price: dec('123456789012345678901234.123456789'), quantity: dec('12') },
  { type: 'modify-order', symbol: 'BTC-SWAP-USDT', clientOrderId: 'grid-1-000001' },
  { type: 'cancel-order', symbol: 'BTC-SWAP-USDT', clientOrderId: 'grid-1-000001' },
  { type: 'cancel-all', symbol: 'BTC-SWAP-USDC' },
  {
    type: 'place-algo', clientOrderId: 'plan-7', symbol: 'BTC-SWAP-USDT', side: 'SELL', positionSide: 'LONG', orderType: 'LIMIT',
    triggerPrice: dec('58000'), triggerBy: 'MARK_PRICE', price: dec('57950'), quantity: dec('5'), timeInForce: 'GTC',
    takeProfit: { triggerPrice: dec('1'), triggerBy: 'MARK_PRICE' }, stopLoss: { triggerPrice: dec('2'), triggerBy: 'MARK_PRICE', limitPrice: dec('1.5') },
  },
  { type: 'place-algo', clientOrderId: 'plan-8', symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'SHORT', orderType: 'MARKET', triggerPrice: dec('1e-8'), triggerBy: 'CONTRACT_PRICE', quantity: dec('1'), timeInForce: 'FOK' },
  {
    type: 'modify-algo', symbol: 'BTC-SWAP-USDT', clientOrderId: 'tpsl-3', kind: 'STOP_LOSS', triggerPrice: dec('61000'), triggerBy: 'MARK_PRICE', price: dec('60900'), quantity: dec('2'),
    trailing: { activePrice: dec('62000'), callbackType: 'RATE', callbackValue: dec('0.015') },
  },
  { type: 'modify-algo', symbol: 'BTC-SWAP-USDT', clientOrderId: 'tpsl-4', kind: 'TAKE_PROFIT', trailing: { callbackType: 'PRICE', callbackValue: dec('25') } },
  { type: 'modify-algo', symbol: 'BTC-SWAP-USDT', clientOrderId: 'plan-7', kind: 'PLAN' },
  { type: 'cancel-algo', symbol: 'BTC-SWAP-USDT', clientOrderId: 'plan-7' },
];

describe('command codec', () => {
  it('covers every command type', () => {
    const types = new Set(commands.map((c) => c.type));
    expect([...types].sort()).toEqual(['cancel-algo', 'cancel-all', 'cancel-order', 'modify-algo', 'modify-order', 'place-algo', 'place-order']);
  });

  it.each(commands.map((c, i) => [`${i} ${c.type}`, c] as const))('round-trips %s to an equal command with exact Decimals', (_name, command) => {
    const back = decodeCommand(encodeCommand(command));
    expect(back).toEqual(command);
    // Re-encoding gives the same text: no digit was lost or reformatted on the way.
    expect(encodeCommand(back)).toBe(encodeCommand(command));
  });

  it('writes decimals as plain text, never as JSON numbers or exponent notation', () => {
    const text = encodeCommand(commands[0] as ExchangeCommand);
    expect(text).toContain('"quantity":"0.0000001"');
    expect(text).toContain('"price":"65000.5"');
    expect(text).not.toMatch(/\d[eE][+-]?\d/);
    expect(encodeCommand(commands[7] as ExchangeCommand)).toContain('"triggerPrice":"0.00000001"');
    const big = decodeCommand(encodeCommand(commands[2] as ExchangeCommand));
    expect(big.type === 'modify-order' && big.price?.toFixed()).toBe('123456789012345678901234.123456789');
  });

  it('drops absent optional fields instead of writing them as null', () => {
    const text = encodeCommand(commands[1] as ExchangeCommand);
    expect(text).not.toContain('price');
    expect(text).not.toContain('null');
    expect('price' in decodeCommand(text)).toBe(false);
  });

  it.each([
    ['not JSON', '{'],
    ['an unknown type', '{"type":"teleport","symbol":"X"}'],
    ['a number where a decimal text belongs', '{"type":"cancel-all","symbol":1}'],
    ['a bad decimal', '{"type":"modify-order","symbol":"X","clientOrderId":"c","price":"12abc"}'],
    ['a JSON number for a decimal', '{"type":"modify-order","symbol":"X","clientOrderId":"c","price":12.5}'],
    ['a bad enum', '{"type":"place-order","clientOrderId":"c","symbol":"X","side":"UP","positionSide":"LONG","orderType":"LIMIT","quantity":"1","timeInForce":"GTC"}'],
  ])('refuses %s with an InvariantError', (_name, text) => {
    expect(() => decodeCommand(text)).toThrow(InvariantError);
  });
});
