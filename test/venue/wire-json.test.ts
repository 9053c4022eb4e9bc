import { parseWireJson } from '../../src/protocol/wire-json.js';

describe('wire JSON: 64-bit ids as numbers', () => {
  test('unsafe integers keep their digits, safe numbers stay numbers, in one reply', () => {
    const text = '[{"orderId":18446744073709551615,"time":1764130000000,"price":"68000.1","n":9007199254740991,"e":-1e+21},{"orderId": 1234567890123456789 }]';
    expect(parseWireJson(text)).toEqual([
      { orderId: '18446744073709551615', time: 1764130000000, price: '68000.1', n: 9007199254740991, e: '-1e+21' },
      { orderId: '1234567890123456789' },
    ]);
  });

  test('an id-like text inside a string is left alone, the number beside it still kept exact', () => {
    const text = '{"msg":"order :18446744073709551615, refused","ids":[18446744073709551615,2],"q":"a\\":12345678901234567890,"}';
    expect(parseWireJson(text)).toEqual({ msg: 'order :18446744073709551615, refused', ids: ['18446744073709551615', 2], q: 'a":12345678901234567890,' });
  });

  test('text that is not JSON is refused', () => {
    expect(() => parseWireJson('{"id":12345678901234567890,')).toThrow(Error);
    expect(() => parseWireJson('[012345678901234567890]')).toThrow(Error);
  });
});
