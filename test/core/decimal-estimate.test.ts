import type { Decimal } from '../../src/core/decimal.js';
import { dec } from '../../src/core/decimal.js';
import { distanceAbove, productSign } from '../../src/core/decimal-estimate.js';

/** Decimal text of many shapes: zeros, signs, trailing zeros, values a base-1e7 word apart, around 2^53. */
function samples(): string[] {
  const out = ['0', '-0', '1', '-1', '0.5', '0.10000001', '9999999', '10000000', '10000000.0000001', '123.4500', '1e-15', '1e-16', '9007199254740991', '9007199254740992', '900719925474099.1', '-0.0000001', 'Infinity', 'NaN'];
  let seed = 11;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  for (let i = 0; i < 2000; i++) {
    const digits = String(next()).slice(0, 1 + (next() % 10)) + String(next()).slice(0, next() % 9);
    const point = next() % (digits.length + 1);
    out.push(`${next() % 3 === 0 ? '-' : ''}${digits.slice(0, point) || '0'}.${digits.slice(point) || '0'}`);
  }
  return out;
}

describe('decimal estimates', () => {
  test('distanceAbove answers as |a − b| / reference compared with the bound in decimal.js, at the bound and a digit either side too', () => {
    const values = samples().slice(0, 700).map((t) => dec(t)).filter((x) => x.isFinite());
    const bounds = ['0.0002', '0.05', '0.00015', '1', '0.3333333333333333333'].map((t) => dec(t));
    const wrong: string[] = [];
    const check = (a: ReturnType<typeof dec>, b: ReturnType<typeof dec>, reference: ReturnType<typeof dec>, bound: ReturnType<typeof dec>): void => {
      const want = a.sub(b).abs().div(reference).gt(bound);
      if (distanceAbove(a, b, reference, bound) !== want) wrong.push(`|${a.toString()} − ${b.toString()}| / ${reference.toString()} > ${bound.toString()}: not ${String(want)}`);
    };
    for (let i = 0; i < values.length; i++) {
      const a = values[i]!;
      const reference = values[(i * 7 + 3) % values.length]!.abs();
      if (reference.isZero()) continue;
      for (const bound of bounds) {
        check(a, values[(i + 1) % values.length]!, reference, bound);
        const edge = bound.mul(reference);
        for (const nudge of ['0', '1e-12', '-1e-12', '1e-18', '-1e-18']) {
          check(a, a.add(edge).add(nudge), reference, bound);
          check(a, a.sub(edge).sub(nudge), reference, bound);
          check(a, a.add(edge.toDecimalPlaces(6)), reference, bound);
        }
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  test('productSign is the sign of a × b (× c) − bound in decimal.js when it tells one, also at the bound and a digit either side', () => {
    const values = samples().slice(0, 700).map((t) => dec(t)).filter((x) => x.isFinite());
    const wrong: string[] = [];
    let told = 0;
    const check = (a: Decimal, b: Decimal, c: Decimal | undefined, bound: Decimal): void => {
      const product = c === undefined ? a.mul(b) : a.mul(b).mul(c);
      const want = product.cmp(bound);
      const got = productSign(a, b, c, bound);
      if (got === undefined) return;
      told++;
      if (got !== want) wrong.push(`${a.toString()} × ${b.toString()} × ${c?.toString() ?? '1'} vs ${bound.toString()}: ${got}, not ${want}`);
    };
    for (let i = 0; i < values.length; i++) {
      const a = values[i]!;
      const b = values[(i * 7 + 3) % values.length]!;
      const c = values[(i * 13 + 5) % values.length]!;
      for (const factor of [undefined, c]) {
        const exact = factor === undefined ? a.mul(b) : a.mul(b).mul(factor);
        check(a, b, factor, values[(i + 1) % values.length]!);
        for (const nudge of ['0', '1e-8', '-1e-8', '1e-12', '-1e-12', '1e-18', '-1e-18']) check(a, b, factor, exact.add(exact.abs().mul(nudge)));
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(told).toBeGreaterThan(values.length);
  });
});
