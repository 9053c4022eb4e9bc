import { RATE_SCALE, rateE8, trailingLevel } from '../../../../src/sim/engine/triggers/index.js';

describe('trailing levels in exact integer ticks', () => {
  it.each([
    ['0.01', 1_000_000],
    ['0.005', 500_000],
    ['0.00000001', 1],
    ['0.1', 10_000_000],
    ['1', RATE_SCALE],
  ])('rate %s is %d units of 1e-8', (text, units) => {
    expect(rateE8(text)).toBe(units);
  });

  it('refuses rates finer than 1e-8 or not plain decimal text', () => {
    for (const bad of ['0.000000001', '1e-2', '', 'abc']) expect(rateE8(bad)).toBeUndefined();
  });

  it.each([
    // direction, rate (1e-8), extreme, level: FALLING floor(extreme × (1 − r)), RISING ceil(extreme × (1 + r))
    ['FALLING', 1_000_000, 950_000, 940_500],
    ['FALLING', 1_000_000, 950_001, 940_500], // 940500.99 → 940500
    ['FALLING', 1_000_000, 950_099, 940_598], // 940598.01 → 940598
    ['FALLING', 1_000_000, 100, 99],
    ['FALLING', 1_000_000, 1, 0], // 0.99 → 0
    ['FALLING', 123_456, 1_110_214, 1_108_843], // 1108843.38…
    ['RISING', 1_000_000, 950_000, 959_500],
    ['RISING', 1_000_000, 950_001, 959_502], // 959501.01 → 959502
    ['RISING', 1_000_000, 100, 101],
    ['RISING', 1_000_000, 1, 2], // 1.01 → 2
    ['RISING', 123_456, 1_110_214, 1_111_585], // 1111584.61…
  ] as const)('%s at rate %de-8 from %d: level %d', (direction, rate, extreme, level) => {
    expect(trailingLevel(direction, { type: 'RATE', rateE8: rate }, extreme)).toBe(level);
  });

  it('stays exact where ticks × rate passes 2^53', () => {
    // 2^53 / 10^8 ≈ 9.0e7 ticks: beyond it the product is computed with BigInt.
    const extreme = 4_000_000_000_001;
    expect(trailingLevel('FALLING', { type: 'RATE', rateE8: 1_000_000 }, extreme)).toBe(3_960_000_000_000); // …000.99
    expect(trailingLevel('RISING', { type: 'RATE', rateE8: 1_000_000 }, extreme)).toBe(4_040_000_000_002); // …001.01
    expect(trailingLevel('FALLING', { type: 'RATE', rateE8: 3 }, 300_000_000)).toBe(299_999_991);
  });

  it.each([
    ['FALLING', 50, 950_000, 949_950],
    ['RISING', 50, 950_000, 950_050],
  ] as const)('%s by a price distance of %d ticks from %d: level %d', (direction, ticks, extreme, level) => {
    expect(trailingLevel(direction, { type: 'PRICE', ticks }, extreme)).toBe(level);
  });
});
