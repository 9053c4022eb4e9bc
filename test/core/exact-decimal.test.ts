import type { Decimal } from '../../src/core/decimal.js';
import { dec } from '../../src/core/decimal.js';
import { dividedExact, minusExact, plusExact, timesExact, timesRatioExact, weightedAverageExact } from '../../src/core/exact-decimal.js';

/** Money-like decimals: zeros of both signs, few and many places, 20-digit quotients, values near 2^53. */
function samples(): Decimal[] {
  const out = ['0', '-0', '1', '-1', '0.5', '2.5', '-2.5', '12.34567891', '-0.00000001', '0.0002', '9007199254740991', '-900719925474099.1', '1e-15', '1e-16', '123456789012.345678'].map(dec);
  out.push(dec(1).div(3), dec(-2).div(7), dec(0).mul(-1), dec(100).div(3));
  let seed = 5;
  const next = (): number => {
    seed = (seed * 48271) % 2147483647;
    return seed;
  };
  for (let i = 0; i < 120; i++) {
    const value = dec(next() % 2_000_000).div(10 ** (next() % 12)).mul(next() % 2 === 0 ? 1 : -1);
    out.push(next() % 5 === 0 ? value.div((next() % 9) + 1) : value);
  }
  return out;
}

/** Same value, same sign of zero, same digit words. */
function same(got: Decimal, want: Decimal): boolean {
  return got.valueOf() === want.valueOf() && got.e === want.e && (got.d ?? []).join() === (want.d ?? []).join();
}

describe('exact decimal steps', () => {
  const values = samples();

  test('sum, difference and product: what decimal.js gives, sign of zero and digit words included', () => {
    const wrong: string[] = [];
    for (const a of values) {
      for (const b of values) {
        if (!same(plusExact(a, b), a.add(b))) wrong.push(`${a.valueOf()} + ${b.valueOf()}`);
        if (!same(minusExact(a, b), a.sub(b))) wrong.push(`${a.valueOf()} - ${b.valueOf()}`);
        if (!same(timesExact(a, b), a.mul(b))) wrong.push(`${a.valueOf()} * ${b.valueOf()}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  test('a share of a whole number ratio and a division by a whole number: what decimal.js gives', () => {
    const wrong: string[] = [];
    for (const a of values) {
      for (const [n, d] of [[1, 1], [1, 3], [2, 4], [3, 7], [5, 8], [1, 20], [7, 125], [1000, 3]] as const) {
        if (!same(timesRatioExact(a, n, d), a.mul(n).div(d))) wrong.push(`${a.valueOf()} * ${n} / ${d}`);
        if (!same(dividedExact(a, d), a.div(d))) wrong.push(`${a.valueOf()} / ${d}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  test('a weighted average: what decimal.js gives', () => {
    const wrong: string[] = [];
    const weights = ['0', '1', '0.5', '3', '0.001', '1234.5'].map(dec);
    for (const a of values.slice(0, 40)) {
      for (const p of values.slice(0, 40)) {
        for (const ca of weights) {
          for (const cp of weights.slice(1)) {
            if (!same(weightedAverageExact(a, ca, p, cp), a.mul(ca).add(p.mul(cp)).div(ca.add(cp)))) wrong.push(`${a.valueOf()}×${ca.valueOf()} + ${p.valueOf()}×${cp.valueOf()}`);
          }
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
