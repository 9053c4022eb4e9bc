import { directionFor, tpslDirection, trailingDirection } from '../../../../src/sim/engine/triggers/index.js';

describe('trigger directions', () => {
  it.each([
    [1000, 900, 'RISING'],
    [800, 900, 'FALLING'],
    [900, 900, 'RISING'],
    [1, 2, 'FALLING'],
  ] as const)('a plan stop at %d with the price at %d is %s', (stop, current, direction) => {
    expect(directionFor(stop, current)).toBe(direction);
  });

  it.each([
    ['LONG', 'TAKE_PROFIT', 'RISING'],
    ['LONG', 'STOP_LOSS', 'FALLING'],
    ['SHORT', 'TAKE_PROFIT', 'FALLING'],
    ['SHORT', 'STOP_LOSS', 'RISING'],
  ] as const)('a fixed %s %s is %s', (positionSide, stopOrderType, direction) => {
    expect(tpslDirection(positionSide, stopOrderType)).toBe(direction);
  });

  it.each([
    ['LONG', 'FALLING'],
    ['SHORT', 'RISING'],
  ] as const)('a trailing stop closing a %s fires %s', (positionSide, direction) => {
    expect(trailingDirection(positionSide)).toBe(direction);
  });
});
