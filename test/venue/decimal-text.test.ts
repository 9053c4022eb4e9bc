import { Decimal, parseDecimal } from '../../src/core/decimal.js';
import { decimalOfText } from '../../src/venue/wire/decimal-text.js';
import { wireDecimal } from '../../src/venue/wire/schema.js';

/** The Decimal's own fields, in their order (its hidden shape): sign, exponent, digit words. */
function parts(value: Decimal | undefined): unknown {
  if (value === undefined) return undefined;
  return { keys: Object.keys(value), s: value.s, e: value.e, d: value.d, text: value.toFixed() };
}

function expectSameAsParseDecimal(text: string): void {
  const fast = decimalOfText(text);
  expect({ text, value: parts(fast) }).toEqual({ text, value: parts(parseDecimal(text)) });
  if (fast !== undefined) expect(fast).toBeInstanceOf(Decimal);
}

/** A deterministic pseudo-random sequence (no seedless randomness in tests). */
function* randomTexts(count: number): Generator<string> {
  let state = 0x2545f491;
  const next = (n: number): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  const digits = (n: number): string => Array.from({ length: n }, () => (next(3) === 0 ? '0' : String(next(10)))).join('');
  for (let i = 0; i < count; i++) {
    const sign = ['', '', '-', '+'][next(4)] ?? '';
    const integer = digits(next(25));
    const fraction = digits(next(25));
    const shape = next(4);
    yield shape === 0 ? `${sign}${integer}` : shape === 1 ? `${sign}${integer}.` : `${sign}${integer}.${fraction}`;
  }
}

describe('wire decimals from their text in one pass', () => {
  test.each([
    '0', '-0', '+0', '0.000', '-0.0', '00', '.5', '5.', '-.5', '+5.', '1', '9', '10', '100000', '1000000', '10000000', '1234567', '12345678',
    '0.1', '0.0000001', '0.00000001', '0.000000012345678', '111154.2', '112973.63786', '0.0012', '99986.34013696', '13.65986304', '88931.4',
    '00012.3400', '-00012.3400', '123456789012345678901234567890', '0.000000000000000000000000000001', '1.00000000000000000000001',
    '9999999.9999999', '-9999999.99999999',
  ])('%s reads as parseDecimal reads it', (text) => expectSameAsParseDecimal(text));

  test.each(['', '.', '-', '+', '-.', '1.2.3', '1,5', ' 1', '1 ', '0x10', '1e5', '1E-7', '-2.5e+3', 'e5', 'NaN', 'Infinity', '--1', '+-1', '1-', '١٢'])(
    '%j: what parseDecimal answers (refused, or read with its exponent)',
    (text) => expectSameAsParseDecimal(text),
  );

  test('random texts of up to 50 digits read as parseDecimal reads them', () => {
    for (const text of randomTexts(5000)) expectSameAsParseDecimal(text);
  });

  test('wire amounts given as numbers or padded text read as before', () => {
    expect(wireDecimal(86158.3)?.toFixed()).toBe('86158.3');
    expect(wireDecimal(1e-7)?.toFixed()).toBe('0.0000001');
    expect(wireDecimal(' 12.50 ')?.toFixed()).toBe('12.5');
    expect(wireDecimal('1e31')).toBeUndefined();
    expect(wireDecimal('12abc')).toBeUndefined();
  });

  test('arithmetic on a decimal read here equals arithmetic on one decimal.js read', () => {
    const a = decimalOfText('111154.2') as Decimal;
    const b = decimalOfText('-0.0012') as Decimal;
    expect(a.plus(b).toFixed()).toBe(new Decimal('111154.2').plus(new Decimal('-0.0012')).toFixed());
    expect(a.mul(b).toFixed()).toBe('-133.38504');
    expect(a.eq(new Decimal('111154.20'))).toBe(true);
  });
});
