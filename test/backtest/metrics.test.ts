import { dec } from '../../src/core/decimal.js';
import { csvLine } from '../../src/report/csv.js';
import { drawdowns, performanceOf, periodsPerYear } from '../../src/backtest/metrics.js';

const curve = (values: readonly string[], partialLast = false) => values.map((v, i) => ({ equity: dec(v), partial: partialLast && i === values.length - 1 }));

test('return, drawdown and the ratios of an equity curve, on the documented bases', () => {
  const figures = performanceOf(curve(['100', '110', '99', '121']), 60_000);
  const r = [0.1, -0.1, 121 / 99 - 1];
  const mean = (r[0]! + r[1]! + r[2]!) / 3;
  const sd = Math.sqrt(r.reduce((s, x) => s + (x - mean) ** 2, 0) / 2);
  const downside = Math.sqrt(0.01 / 3);
  const perYear = (365 * 24 * 60);
  expect(periodsPerYear(60_000).toNumber()).toBe(perYear);
  expect(figures.totalReturn.toNumber()).toBeCloseTo(0.21, 12);
  expect(figures.maxDrawdown.toNumber()).toBeCloseTo(0.1, 12);
  expect(figures.maxDrawdownAmount.toFixed()).toBe('11');
  expect(figures.sharpe?.toNumber()).toBeCloseTo((mean / sd) * Math.sqrt(perYear), 6);
  expect(figures.sortino?.toNumber()).toBeCloseTo((mean / downside) * Math.sqrt(perYear), 6);
  expect(figures.annualizedReturn?.toNumber()).toBeCloseTo(mean * perYear, 6);
  expect(figures.calmar?.toNumber()).toBeCloseTo((mean * perYear) / 0.1, 4);
});

test('a flat curve has no ratios; a partial last sample counts for the return, not for the ratios', () => {
  const flat = performanceOf(curve(['100', '100', '100']), 1000);
  expect([flat.sharpe, flat.sortino, flat.calmar]).toEqual([undefined, undefined, undefined]);
  expect(flat.maxDrawdown.toNumber()).toBe(0);
  const partial = performanceOf(curve(['100', '101', '102', '50'], true), 1000);
  expect(partial.totalReturn.toNumber()).toBe(-0.5);
  expect(partial.maxDrawdown.toNumber()).toBeCloseTo(52 / 102, 12);
  expect(partial.sortino).toBeUndefined();
  expect(drawdowns([dec(100), dec(80), dec(120), dec(90)]).map((d) => d.toNumber())).toEqual([0, 0.2, 0, 0.25]);
});

test('CSV cells with commas, quotes or line breaks are quoted', () => {
  expect(csvLine(['a', 1, true, 'x,y', 'say "hi"', 'two\nlines'])).toBe('a,1,true,"x,y","say ""hi""","two\nlines"\n');
});
