import { createHmac } from 'node:crypto';
import { hmacSha256Hex } from '../../src/protocol/hmac-sha256.js';

/** Text of `length` characters drawn from `alphabet`, the same every run. */
function text(length: number, alphabet: string, seed: number): string {
  let out = '';
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet.charAt(x % alphabet.length);
  }
  return out;
}

describe('hmacSha256Hex', () => {
  const ascii = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=&-_.{}":,[]';
  const wide = 'aé€𝄞ü中';

  it('gives node:crypto\'s digest for every text length across the block and padding edges', () => {
    const sign = hmacSha256Hex('30lfjDT51iOG1kYZnDoLNynOyMdIcmQyO1XYfxzYOmQfx9tjiI98Pzio4uhZ0Uk2');
    for (let length = 0; length <= 300; length++) {
      const message = text(length, ascii, length);
      expect(sign(message)).toBe(createHmac('sha256', '30lfjDT51iOG1kYZnDoLNynOyMdIcmQyO1XYfxzYOmQfx9tjiI98Pzio4uhZ0Uk2').update(message, 'utf8').digest('hex'));
    }
  });

  it.each([0, 1, 32, 63, 64, 65, 200])('gives node:crypto\'s digest for a key of %i bytes', (keyLength) => {
    const key = text(keyLength, ascii, 7 + keyLength);
    const sign = hmacSha256Hex(key);
    for (const message of ['', 'x', text(55, ascii, 1), text(56, ascii, 2), text(119, ascii, 3), text(5000, ascii, 4)]) {
      expect(sign(message)).toBe(createHmac('sha256', key).update(message, 'utf8').digest('hex'));
    }
  });

  it('hashes text and keys beyond ASCII as UTF-8', () => {
    const key = text(40, wide, 5);
    const sign = hmacSha256Hex(key);
    for (const length of [1, 20, 21, 22, 60, 700]) {
      const message = text(length, wide, length);
      expect(sign(message)).toBe(createHmac('sha256', key).update(message, 'utf8').digest('hex'));
    }
  });

  it('keeps each signer to its own key when several sign in turn, after a long text grew the work area', () => {
    const first = hmacSha256Hex('first');
    const second = hmacSha256Hex('second');
    first(text(10_000, ascii, 9));
    expect(second('symbol=BTC-SWAP-USDT')).toBe(createHmac('sha256', 'second').update('symbol=BTC-SWAP-USDT').digest('hex'));
    expect(first('symbol=BTC-SWAP-USDT')).toBe(createHmac('sha256', 'first').update('symbol=BTC-SWAP-USDT').digest('hex'));
  });
});
