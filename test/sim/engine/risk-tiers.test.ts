import { compareDecimals } from '../../../src/core/decimal.js';
import { decimalOfText } from '../../../src/core/decimal-cache.js';
import type { RiskLimitTier } from '../../../src/sim/market-stream/instruments.js';
import { StepGrid } from '../../../src/sim/market-stream/ticks.js';
import { GridDecimals } from '../../../src/sim/engine/grid-decimals.js';
import { RiskTiers } from '../../../src/sim/engine/risk-tiers.js';

import type { Decimal } from '../../../src/core/decimal.js';

/** The tier rule as the spec states it, on decimal contracts: the first tier whose bound holds the position, else the last. */
function tierOf(tiers: readonly RiskLimitTier[], contracts: Decimal): RiskLimitTier | undefined {
  return tiers.find((tier) => compareDecimals(contracts, decimalOfText(tier.maxQuantity)) <= 0) ?? tiers[tiers.length - 1];
}

const TIERS: readonly RiskLimitTier[] = [
  { riskLimitId: '1', maxQuantity: '4.2', initialMarginRate: '0.02', maintMarginRate: '0.01' },
  // Off the quantity grid (0.1): compared as decimals.
  { riskLimitId: '2', maxQuantity: '8.45', initialMarginRate: '0.04', maintMarginRate: '0.025' },
  { riskLimitId: '3', maxQuantity: '12', initialMarginRate: '0.1', maintMarginRate: '0.05' },
];

function tiersOn(step: string, tiers: readonly RiskLimitTier[]): { readonly risk: RiskTiers; readonly lotsDecimal: GridDecimals } {
  const grid = new StepGrid(step);
  const lotsDecimal = new GridDecimals(grid);
  return { risk: new RiskTiers(tiers, grid, lotsDecimal), lotsDecimal };
}

test('the tier of a position in lots is the first whose bound holds its contracts, on and off the grid, and beyond the last', () => {
  const { risk, lotsDecimal } = tiersOn('0.1', TIERS);
  for (let lots = 0; lots <= 130; lots++) {
    const contracts = lotsDecimal.of(lots);
    const expected = tierOf(TIERS, contracts)!;
    const found = risk.ofLots(lots);
    expect(found.tier).toBe(expected);
    expect(found.initialMarginRate.eq(expected.initialMarginRate)).toBe(true);
    expect(found.maintRate.eq(expected.maintMarginRate)).toBe(true);
    expect(risk.beyondLast(lots)).toBe(compareDecimals(contracts, decimalOfText('12')) > 0);
  }
  expect(risk.ofLots(84).tier.riskLimitId).toBe('2');
  expect(risk.ofLots(85).tier.riskLimitId).toBe('3');
  expect(risk.ofLots(121).tier.riskLimitId).toBe('3');
});

test('the maintenance rate carries its digits, and an instrument without tiers has no tier', () => {
  const { risk } = tiersOn('0.1', TIERS);
  expect(risk.ofLots(50).maintRateDigits).toEqual({ units: 25, scale: 3 });
  const none = tiersOn('1', []).risk;
  expect(none.beyondLast(5)).toBe(false);
  expect(() => none.ofLots(5)).toThrow(RangeError);
});
