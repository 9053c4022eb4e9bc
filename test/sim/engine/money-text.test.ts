import { dec } from '../../../src/core/decimal.js';
import { money, moneyValue } from '../../../src/sim/engine/views.js';

describe('money text and value', () => {
  test('answer what rounding to 8 decimals answers, with or without the rounding copy', () => {
    const texts = ['0', '-0', '1', '-1', '0.12345678', '0.123456785', '-0.123456785', '0.000000004', '-0.000000004', '0.000000005', '123456789.1', '99999.99999999999', '1e-9', '1.5e-8', '-2.50000000000', '1e21', '0.1234567891234567891'];
    const wrong: string[] = [];
    for (const text of texts) {
      const value = dec(text);
      const rounded = value.toDecimalPlaces(8);
      if (money(value) !== rounded.toFixed()) wrong.push(`money(${text}) = ${money(value)}, not ${rounded.toFixed()}`);
      const asValue = moneyValue(value);
      const want = dec(rounded.toFixed());
      if (!asValue.eq(want) || asValue.isNegative() !== (want.isNegative() && !want.isZero())) wrong.push(`moneyValue(${text}) = ${asValue.toString()}, not ${want.toString()}`);
    }
    expect(wrong).toEqual([]);
  });
});
