import type { Decimal } from '../../src/core/decimal.js';
import { dec } from '../../src/core/decimal.js';
import { distanceAbove, productSign, quotientFloorAtMost } from '../../src/core/decimal-estimate.js';
import { decimalTextSamples } from '../support/decimal-text-samples.js';

describe('decimal estimates', () => {
  test('distanceAbove answers as |a − b| / reference compared with the bound in decimal.js, at the bound and a digit either side too', () => {
    const values = decimalTextSamples().slice(0, 700).map((t) => dec(t)).filter((x) => x.isFinite());
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
    const values = decimalTextSamples().slice(0, 700).map((t) => dec(t)).filter((x) => x.isFinite());
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

  test('quotientFloorAtMost never exceeds ⌊a / parts / b / c⌋ in decimal.js and falls short of it by at most one and a billionth, whole quotients and a digit either side too', () => {
    const values = decimalTextSamples().slice(0, 700).map((t) => dec(t)).filter((x) => x.isFinite() && x.gt(0));
    const wrong: string[] = [];
    let told = 0;
    const check = (a: Decimal, parts: number, b: Decimal, c: Decimal): void => {
      const want = (parts === 1 ? a : a.div(parts)).div(b).div(c).floor().toNumber();
      const got = quotientFloorAtMost(a, parts, b, c);
      if (got === undefined) return;
      told++;
      if (got > want || got < want - 1 - Math.ceil(want * 2e-9)) wrong.push(`⌊${a.toString()} / ${parts} / ${b.toString()} / ${c.toString()}⌋ = ${want}: ${got}`);
    };
    for (let i = 0; i < values.length; i++) {
      const b = values[(i * 7 + 3) % values.length]!;
      const c = values[(i * 13 + 5) % values.length]!;
      for (const parts of [1, 3]) {
        check(values[i]!, parts, b, c);
        for (const whole of ['1', '7', '1000', '123456789']) {
          const exact = b.mul(c).mul(whole).mul(parts);
          for (const nudge of ['0', '1e-12', '-1e-12', '1e-19', '-1e-19']) check(exact.add(exact.mul(nudge)), parts, b, c);
        }
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(told).toBeGreaterThan(values.length);
  });
});
