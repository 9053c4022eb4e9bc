import { dec } from '../../src/core/decimal.js';
import { JsonInteger, writeWireJson } from '../../src/protocol/json-writer.js';

describe('writeWireJson: the exact bytes signed and sent', () => {
  test('keys in insertion order, undefined fields dropped, decimals quoted without exponent, ids bare', () => {
    const body = {
      first: undefined,
      symbol: 'BTC-SWAP-USDT',
      price: dec('64350.7'),
      small: dec('1e-9'),
      big: dec('-1.5e21'),
      skipped: undefined,
      orderId: new JsonInteger('18446744073709551615'),
      n: 5000,
      flag: false,
      none: null,
      list: [1, undefined, dec('0.10'), 'a"b'],
      'k"ey\n': { inner: true, gone: undefined },
      empty: {},
    };
    expect(writeWireJson(body)).toBe(
      '{"symbol":"BTC-SWAP-USDT","price":"64350.7","small":"0.000000001","big":"-1500000000000000000000","orderId":18446744073709551615,"n":5000,"flag":false,"none":null,"list":[1,null,"0.1","a\\"b"],"k\\"ey\\n":{"inner":true},"empty":{}}',
    );
  });

  test('an object of undefined fields only is {}; decimals as numbers in the catalog style', () => {
    expect(writeWireJson({ a: undefined })).toBe('{}');
    expect(writeWireJson({ a: undefined, price: dec('2.50'), q: dec('-3') }, 'number')).toBe('{"price":2.5,"q":-3}');
  });

  test('a non-finite number or decimal throws', () => {
    expect(() => writeWireJson({ n: Number.NaN })).toThrow(RangeError);
    expect(() => writeWireJson({ p: dec('Infinity') })).toThrow(RangeError);
  });
});
