import { Decimal } from '../../../src/core/decimal.js';
import { BTC_SWAP_USDT, DEFAULT_SIM_INSTRUMENTS, ETH_SWAP_USDT, instrumentGrids } from '../../../src/sim/market-stream/instruments.js';
import { StepGrid } from '../../../src/sim/market-stream/ticks.js';

describe('StepGrid: decimal text ↔ integer ticks/lots', () => {
  it('converts a price on the 0.1 tick exactly and back', () => {
    const ticks = new StepGrid('0.1');
    expect(ticks.toUnits('111021.4')).toBe(1110214);
    expect(ticks.toText(1110214)).toBe('111021.4');
  });

  it.each([
    ['0.1', '111021', 1110210, '111021'],
    ['0.1', '111021.40', 1110214, '111021.4'],
    ['0.01', '4435.59', 443559, '4435.59'],
    ['0.01', '0.07', 7, '0.07'],
    ['1', '15224', 15224, '15224'],
    ['0.5', '2.5', 5, '2.5'],
    ['10', '120', 12, '120'],
    ['0.00000001', '-0.00012345', -12345, '-0.00012345'],
    ['0.00000001', '0.003', 300000, '0.003'],
  ])('on the grid of %s, %s is %d units and reads back as %s', (step, text, units, canonical) => {
    const grid = new StepGrid(step);
    expect(grid.toUnits(text)).toBe(units);
    expect(grid.toText(units)).toBe(canonical);
  });

  it('refuses values between grid points and text that is not plain decimal', () => {
    const grid = new StepGrid('0.1');
    for (const bad of ['111021.45', '1e5', '', '.5', '5.', '-', ' 1', '1,5', '0x10', 'NaN']) expect(grid.tryUnits(bad)).toBeUndefined();
    expect(new StepGrid('0.5').tryUnits('1.2')).toBeUndefined();
    expect(() => grid.toUnits('111021.45')).toThrow('"111021.45" is not a multiple of 0.1');
    expect(() => new StepGrid('0')).toThrow(RangeError);
    expect(() => new StepGrid('1e-8')).toThrow(RangeError);
  });

  it('is exact up to 2^53 and refuses beyond', () => {
    const grid = new StepGrid('0.00000001');
    expect(grid.toUnits('90071992.54740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(grid.toText(Number.MAX_SAFE_INTEGER)).toBe('90071992.54740991');
    expect(grid.tryUnits('90071992.54740993')).toBeUndefined();
    expect(() => grid.toText(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
  });

  it('round-trips many random grid points and agrees with decimal.js', () => {
    const grid = new StepGrid('0.01');
    let seed = 12345;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const units = seed - 1073741824;
      const text = grid.toText(units);
      expect(grid.toUnits(text)).toBe(units);
      expect(new Decimal(text).equals(new Decimal(units).times('0.01'))).toBe(true);
    }
  });
});

describe('default instruments (API-NOTES §5.1, §6.2)', () => {
  it('BTC-SWAP-USDT: contract step = LOT_SIZE stepSize / contractMultiplier = 0.0001 / 0.001', () => {
    expect(new Decimal('0.0001').div(BTC_SWAP_USDT.contractMultiplier).toFixed()).toBe(BTC_SWAP_USDT.quantityStep);
    expect(BTC_SWAP_USDT.tickSize).toBe('0.1');
    expect(ETH_SWAP_USDT).toMatchObject({ tickSize: '0.01', contractMultiplier: '0.01', quantityStep: '1' });
    expect(DEFAULT_SIM_INSTRUMENTS.map((i) => i.category)).toContain('USDC');
  });

  it('keeps every number of every default instrument on its own grids', () => {
    for (const instrument of DEFAULT_SIM_INSTRUMENTS) {
      const grids = instrumentGrids(instrument);
      expect(grids.price.tryUnits(instrument.initialPrice)).toBeDefined();
      for (const qty of [instrument.minQuantity, instrument.maxQuantity, ...instrument.riskLimits.map((r) => r.maxQuantity)]) {
        expect(grids.quantity.tryUnits(qty)).toBeDefined();
      }
    }
  });
});
