import { dec } from '../../src/core/decimal.js';
import { DecimalCache } from '../../src/core/decimal-cache.js';

describe('DecimalCache', () => {
  test('answers dec(text), the same instance for the same text, and stays right once full', () => {
    const cache = new DecimalCache(2);
    const first = cache.of('111022.2');
    expect(first.eq(dec('111022.2'))).toBe(true);
    expect(cache.of('111022.2')).toBe(first);
    for (const text of ['0.0001', '-3.5', '1e-7', '42']) expect(cache.of(text).toFixed()).toBe(dec(text).toFixed());
    expect(cache.of('111022.2').toFixed()).toBe('111022.2');
    expect(() => cache.of('not a number')).toThrow();
  });
});
