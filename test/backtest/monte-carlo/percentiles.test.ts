import { distributionOf } from '../../../src/analysis/monte-carlo/percentiles.js';

describe('distributions', () => {
  it('interpolates percentiles between closest ranks (type 7, as numpy and R), in any input order', () => {
    expect(distributionOf([5, 1, 4, 2, 3])).toEqual({ count: 5, mean: 3, min: 1, max: 5, percentiles: { p5: 1.2, p25: 2, p50: 3, p75: 4, p95: 4.8 } });
  });

  it('has no figures for no values, and one value for all of them for one', () => {
    expect(distributionOf([])).toEqual({ count: 0, mean: null, min: null, max: null, percentiles: { p5: null, p25: null, p50: null, p75: null, p95: null } });
    expect(distributionOf([-0.5]).percentiles).toEqual({ p5: -0.5, p25: -0.5, p50: -0.5, p75: -0.5, p95: -0.5 });
  });
});
