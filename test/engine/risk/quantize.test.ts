import { Decimal, dec } from '../../../src/core/decimal.js';
import { numberProblem, quantizePrice, quantizeQty, quantizeTrigger } from '../../../src/engine/risk/quantize.js';

describe('quantize', () => {
  it.each([
    ['100.05', '0.1', 'BUY', '100'],
    ['100.05', '0.1', 'SELL', '100.1'],
    ['100.1', '0.1', 'BUY', '100.1'],
    ['100.1', '0.1', 'SELL', '100.1'],
    ['0.123456', '0.0001', 'BUY', '0.1234'],
    ['0.123456', '0.0001', 'SELL', '0.1235'],
    ['27037.26', '0.5', 'BUY', '27037'],
    ['27037.26', '0.5', 'SELL', '27037.5'],
  ] as const)('price %s on tick %s for a %s is %s (never more aggressive)', (price, tick, side, expected) => {
    expect(quantizePrice(dec(price), dec(tick), side).toFixed()).toBe(expected);
  });

  it.each([
    ['100.04', '0.1', '100'],
    ['100.05', '0.1', '100.1'],
    ['100.06', '0.1', '100.1'],
  ])('trigger %s on tick %s goes to the nearest tick %s', (price, tick, expected) => {
    expect(quantizeTrigger(dec(price), dec(tick)).toFixed()).toBe(expected);
  });

  it.each([
    ['7.9', '1', '7'],
    ['0.0099', '0.001', '0.009'],
    ['0.4', '1', '0'],
    ['12', '5', '10'],
  ])('quantity %s on step %s rounds down to %s', (qty, step, expected) => {
    expect(quantizeQty(dec(qty), dec(step)).toFixed()).toBe(expected);
  });

  it.each<[string, unknown, string | undefined]>([
    ['a positive decimal', dec('1.5'), undefined],
    ['missing', undefined, 'is missing'],
    ['a JS number', 5, 'is not a decimal'],
    ['a string', '5', 'is not a decimal'],
    ['NaN', dec(NaN), 'is NaN'],
    ['Infinity', dec(Infinity), 'is not finite'],
    ['-Infinity', new Decimal(-Infinity), 'is not finite'],
    ['zero', dec(0), 'is not positive'],
    ['negative', dec('-1'), 'is not positive'],
    ['absurd', dec('1e30'), 'is absurdly large'],
  ])('a number that is %s: %s', (_what, value, problem) => {
    expect(numberProblem(value)).toBe(problem);
  });
});
