/** Decimal text of many shapes: zeros, signs, trailing zeros, values a base-1e7 word apart, around 2^53. */
export function decimalTextSamples(): string[] {
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
