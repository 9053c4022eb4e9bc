import { aboveZero, compareDecimals, dec } from '../../src/core/decimal.js';

/** A deterministic spread of decimal text: signs, zeros, tiny and huge exponents, long digit runs, values a base-1e7 word apart. */
function samples(): string[] {
  const out = ['0', '-0', '1', '-1', '0.1', '0.10000001', '9999999', '10000000', '10000000.0000001', '1e-20', '-1e-20', '1e21', '123456789.123456789', '123456789.12345679', 'Infinity', '-Infinity', 'NaN'];
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  for (let i = 0; i < 300; i++) {
    const digits = String(next()) + String(next()).slice(0, next() % 10);
    const point = next() % (digits.length + 1);
    const text = `${next() % 3 === 0 ? '-' : ''}${digits.slice(0, point) || '0'}.${digits.slice(point) || '0'}e${(next() % 41) - 20}`;
    out.push(text);
  }
  return out;
}

describe('compareDecimals', () => {
  test('answers what decimal.js cmp answers for every pair, NaN and infinities included', () => {
    const values = samples().map((text) => dec(text));
    const wrong: string[] = [];
    let pairs = 0;
    for (const a of values) {
      for (const b of values) {
        const got = compareDecimals(a, b);
        const want = a.cmp(b);
        if (!Object.is(got, want)) wrong.push(`${a.toString()} vs ${b.toString()}: ${got}, not ${want}`);
        pairs++;
      }
    }
    expect(wrong).toEqual([]);
    expect(pairs).toBe(values.length ** 2);
    expect(new Set(values.map((v) => v.toString())).size).toBeGreaterThan(300);
  });
});

describe('decimal shortcuts', () => {
  test('aboveZero is gt(0)', () => {
    const wrong = samples()
      .map((text) => dec(text))
      .filter((value) => aboveZero(value) !== value.gt(0))
      .map((value) => value.toString());
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});
