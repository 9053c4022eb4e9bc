import { decimal, optDecimal, parseWire } from '../../src/venue/wire/schema.js';

/** The wire's decimal fields: exact text kept, and garbage magnitudes refused at the same bounds as before the exponent fast path. */
describe('wire decimals: lossless, and magnitudes from 1e-30 to 1e30 (or zero)', () => {
  const read = (value: unknown): string | undefined => {
    const parsed = parseWire(decimal, value, 'GET /test');
    return parsed.ok ? parsed.value.toFixed() : undefined;
  };

  test('text and numbers become exact decimals', () => {
    expect(read('68000.10')).toBe('68000.1');
    expect(read(' 0.00000001 ')).toBe('0.00000001');
    expect(read('-12345678901234567890.123456789')).toBe('-12345678901234567890.123456789');
    expect(read(95000.5)).toBe('95000.5');
    expect(read('0')).toBe('0');
    expect(read('-0')).toBe('0');
  });

  test('the bounds themselves are accepted, anything beyond them refused', () => {
    expect(read('1e30')).toBe('1' + '0'.repeat(30));
    expect(read('-1e30')).toBe('-1' + '0'.repeat(30));
    expect(read('9.999999e29')).toBe('999999900000000000000000000000');
    expect(read('1e-30')).toBe('0.' + '0'.repeat(29) + '1');
    expect(read('1e-29')).toBe('0.' + '0'.repeat(28) + '1');
    expect(read('1.0000001e30')).toBeUndefined();
    expect(read('-1e31')).toBeUndefined();
    expect(read('9.99e-31')).toBeUndefined();
    expect(read('1e-9000000000000000')).toBeUndefined();
    expect(read(1e300)).toBeUndefined();
  });

  test('what is not a finite decimal is refused with the field named', () => {
    for (const bad of ['abc', '0x10', 'Infinity', 'NaN', '1 2', '', true, null]) expect(read(bad)).toBeUndefined();
    const parsed = parseWire(decimal, 'abc', 'GET /test');
    expect(parsed.ok ? undefined : parsed.error.message).toContain('expected a decimal, got "abc"');
  });

  test('an optional decimal: "" and null are absent, a garbage magnitude is still refused', () => {
    expect(parseWire(optDecimal, '', 'GET /test')).toEqual({ ok: true, value: undefined });
    expect(parseWire(optDecimal, null, 'GET /test')).toEqual({ ok: true, value: undefined });
    expect(parseWire(optDecimal, '1e31', 'GET /test').ok).toBe(false);
  });
});
