import type { Decimal } from '../../src/core/decimal.js';
import { compareDecimals, dec } from '../../src/core/decimal.js';
import { DecimalSum } from '../../src/core/decimal-sum.js';

/** Money-like decimals: zeros of both signs, few and many places, 20-digit quotients, values near 2^53. */
function samples(): Decimal[] {
  const out = ['0', '-0', '1', '-1', '0.5', '12.34567891', '-0.00000001', '9007199254740991', '-900719925474099.1', '1e-15', '1e-16', '123456789012.345678'].map(dec);
  out.push(dec(1).div(3), dec(-2).div(7), dec(0).mul(-1));
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  for (let i = 0; i < 300; i++) {
    const value = dec(next() % 2_000_000).div(10 ** (next() % 12)).mul(next() % 2 === 0 ? 1 : -1);
    out.push(next() % 5 === 0 ? value.div(next() % 9 + 1) : value);
  }
  return out;
}

/** What the figures did before: decimal.js's steps from zero, in order. */
function stepped(first: Decimal, rest: readonly { x: Decimal; negated: boolean }[]): Decimal {
  let sum = dec(0).add(first);
  for (const { x, negated } of rest) sum = negated ? sum.sub(x) : sum.add(x);
  return sum;
}

describe('DecimalSum', () => {
  test('the value, sign of zero and digit words of decimal.js adding and subtracting from zero', () => {
    const values = samples();
    let pick = 3;
    const wrong: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const terms: { x: Decimal; negated: boolean }[] = [];
      const count = 1 + (i % 6);
      for (let j = 0; j < count; j++) {
        pick = (pick * 31 + 17) % values.length;
        terms.push({ x: values[pick]!, negated: j > 0 && (i * 7 + j * 5) % 3 === 0 });
      }
      const sum = new DecimalSum();
      for (const { x, negated } of terms) {
        if (negated) sum.sub(x);
        else sum.add(x);
      }
      const want = stepped(terms[0]!.x, terms.slice(1));
      const got = sum.decimal;
      if (JSON.stringify(got) !== JSON.stringify(want) || got.e !== want.e || got.d.join() !== want.d.join()) wrong.push(`${terms.map((t) => (t.negated ? '-' : '+') + t.x.valueOf()).join(' ')}: ${got.valueOf()}, not ${want.valueOf()}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  test('products added are decimal.js adding each product of its multiplications, mixed with plain terms', () => {
    const values = samples();
    let pick = 5;
    const wrong: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const sum = new DecimalSum();
      let want = dec(0);
      const shown: string[] = [];
      for (let j = 0; j < 1 + (i % 7); j++) {
        const factors: Decimal[] = [];
        for (let k = 0; k < 3; k++) {
          pick = (pick * 31 + 17) % values.length;
          factors.push(values[pick]!);
        }
        const [a, b, c] = factors as [Decimal, Decimal, Decimal];
        if ((i + j) % 4 === 3) {
          sum.add(a);
          want = want.add(a);
          shown.push(`+${a.valueOf()}`);
        } else {
          sum.addProduct(a, b, c);
          want = want.add(a.mul(b).mul(c));
          shown.push(`+${a.valueOf()}×${b.valueOf()}×${c.valueOf()}`);
        }
      }
      const got = sum.decimal;
      if (JSON.stringify(got) !== JSON.stringify(want) || got.e !== want.e || got.d.join() !== want.d.join()) wrong.push(`${shown.join(' ')}: ${got.valueOf()}, not ${want.valueOf()}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // A fill's notional: price × contracts × multiplier, exact, no decimal made per term.
    const notional = new DecimalSum().addProduct(dec('111022.3'), dec('3.5'), dec('0.001')).addProduct(dec('111021.9'), dec('0.1'), dec('0.001'));
    expect(notional.decimal.valueOf()).toBe('399.68024');
  });

  test('a sum as a term is one step with its value, as its decimal would be', () => {
    const third = dec(1).div(3);
    const inner = new DecimalSum().add(dec('0.1')).add(third);
    const outer = new DecimalSum().add(dec('100.25')).sub(inner).add(new DecimalSum().add(dec('0.75')));
    expect(outer.decimal.valueOf()).toBe(dec('100.25').sub(dec(0).add(dec('0.1')).add(third)).add(dec('0.75')).valueOf());
    const exact = new DecimalSum().add(dec('2.5')).sub(new DecimalSum().add(dec('0.125')).add(dec('1')));
    expect(exact.decimal.valueOf()).toBe('1.375');
    expect(new DecimalSum().decimal.valueOf()).toBe('0');
  });

  test('compareTo answers as compareDecimals of its decimal: far from, near and at the compared value, sums as terms too', () => {
    const values = samples();
    const wrong: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const inner = new DecimalSum();
      const sum = new DecimalSum();
      // A 20-digit quotient among the terms: the sum is not the exact integer, the estimate answers.
      sum.add(values[(i * 7) % values.length]!.div(7));
      for (let j = 1; j < 1 + (i % 5); j++) {
        const at = (i * 13 + j * 29) % values.length;
        if (j % 2 === 0) sum.add(values[at]!);
        else sum.sub(values[at]!);
        inner.add(values[(at + 3) % values.length]!.div(3));
      }
      if (i % 3 === 0) sum.sub(inner);
      const value = sum.decimal;
      // Compared before the decimal is read again: the estimate path (a fresh sum of the same terms would be too).
      const probes = [value, value.add('1e-15'), value.sub('1e-15'), value.add(1), value.sub(1), value.mul(2), dec(0)];
      for (const probe of probes) {
        const again = new DecimalSum().add(sum);
        const fresh = i % 3 === 0 ? new DecimalSum().add(value) : again;
        const want = compareDecimals(value, probe);
        const got = fresh.compareTo(probe);
        if (Math.sign(got) !== Math.sign(want)) wrong.push(`${value.valueOf()} vs ${probe.valueOf()}: ${got}, not ${want}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // Terms of 19 places, their sum a hair below the margin it is compared with: the decimal steps decide.
    const free = new DecimalSum().add(dec('1000')).sub(dec('0.1234567890123456789')).sub(dec(1).div(3));
    const exactly = dec('1000').sub(dec('0.1234567890123456789')).sub(dec(1).div(3));
    expect(free.compareTo(exactly)).toBe(0);
    expect(new DecimalSum().add(dec('1000')).sub(dec('0.1234567890123456789')).sub(dec(1).div(3)).compareTo(exactly.add('1e-16'))).toBe(-1);
    expect(new DecimalSum().add(dec('1000')).sub(dec('0.1234567890123456789')).sub(dec(1).div(3)).compareTo(dec('999'))).toBe(1);
  });

  test('a zero sum is the unsigned zero, as decimal.js steps give it', () => {
    const negativeZero = dec(0).mul(-1);
    expect(new DecimalSum().add(dec('1.5')).sub(dec('1.5')).decimal.valueOf()).toBe(dec(0).add(dec('1.5')).sub(dec('1.5')).valueOf());
    expect(new DecimalSum().add(negativeZero).decimal.valueOf()).toBe(dec(0).add(negativeZero).valueOf());
    expect(new DecimalSum().add(negativeZero).add(negativeZero).decimal.valueOf()).toBe(dec(0).add(negativeZero).add(negativeZero).valueOf());
  });
});
