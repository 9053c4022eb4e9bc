import { setFlagsFromString } from 'node:v8';
import { dec } from '../../src/core/decimal.js';

// V8's own view of a value: compiled after the flag is set, so `%…` parses.
setFlagsFromString('--allow-natives-syntax');
const isSmi = new Function('value', 'return %IsSmi(value);') as (value: unknown) => boolean;
const hasSmiElements = new Function('array', 'return %HasSmiElements(array);') as (array: unknown) => boolean;

/** An integral number V8 holds as a double: a difference of two millisecond timestamps. */
function integralDouble(ms: number): number {
  const start = Date.UTC(2026, 0, 1) + 0.5;
  return start + ms - start;
}

describe('dec of a number', () => {
  test('an integral double becomes digits of small integers, as the same integer typed in would', () => {
    const value = integralDouble(123_456);
    expect(isSmi(value)).toBe(false);
    const x = dec(value);
    expect(x.toFixed()).toBe('123456');
    expect(hasSmiElements(x.d)).toBe(true);
    expect(hasSmiElements(dec(-integralDouble(42)).d)).toBe(true);
  });

  test('zero keeps its sign, fractions and large integers their value', () => {
    expect(dec(-0).s).toBe(-1);
    expect(dec(0).s).toBe(1);
    expect(dec(integralDouble(0)).toFixed()).toBe('0');
    expect(dec(2.5).toFixed()).toBe('2.5');
    expect(dec(1_700_000_000_123).toFixed()).toBe('1700000000123');
    expect(dec(-(2 ** 31)).toFixed()).toBe('-2147483648');
  });
});
