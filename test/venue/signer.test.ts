import { orderedParams } from '../../src/core/ordered-params.js';
import { dec } from '../../src/core/decimal.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { ENDPOINTS } from '../../src/protocol/endpoints.js';
import { ExchangeClient } from '../../src/venue/exchange-client.js';
import { signText, textSigner } from '../../src/protocol/signer.js';

// API-NOTES §1.5: the docs' published example secret and vectors.
const SECRET = '30lfjDT51iOG1kYZnDoLNynOyMdIcmQyO1XYfxzYOmQfx9tjiI98Pzio4uhZ0Uk2';

describe('signer (API-NOTES §1.5 vectors)', () => {
  it.each([
    ['A: query or form body', 'symbol=BTCUSDT&side=SELL&type=LIMIT&timeInForce=GTC&quantity=1&price=400&recvWindow=100000&timestamp=1668481902307', '8420e499e71cce4a00946db16543198b6bcae01791bdb75a06b5a7098b156468'],
    ['B: query + body, no & at the join', 'symbol=BTCUSDT&side=SELL&type=LIMIT&timeInForce=GTCquantity=1&price=400&recvWindow=10000000&timestamp=1668481902307', '59ef0b2085ebb99cca5b6445c202d99add17be2d5d1861c0f4aa17bc785ac4d5'],
    ['A with BTC-SWAP-USDT', 'symbol=BTC-SWAP-USDT&side=SELL&type=LIMIT&timeInForce=GTC&quantity=1&price=400&recvWindow=100000&timestamp=1668481902307', 'c51bc80daaf1608a3ab11bec7e3b35a41d351e0224f46b0326447c489d790034'],
    ['B with BTC-SWAP-USDT', 'symbol=BTC-SWAP-USDT&side=SELL&type=LIMIT&timeInForce=GTCquantity=1&price=400&recvWindow=10000000&timestamp=1668481902307', '7abb3b48084b204592d0d6d6a620a77d210a101afd8d4786446b27ac9d4c9d45'],
    ['C: v2 JSON', 'timestamp=1668481902307&recvWindow=5000{"symbol":"BTC-SWAP-USDT","side":"BUY","positionSide":"LONG","type":"LIMIT","newClientOrderId":"v2_001","quantity":"1","price":"30000"}', '18fc417aaed8bab6af784dc6c6d5c1ca3dd4e934836ad0746d9e7602a4318b51'],
    ['batch Q+B', 'recvWindow=5000&timestamp=1668481902307[{"symbol":"BTC-SWAP-USDT","side":"BUY_OPEN","type":"LIMIT","price":"16500","quantity":"10","priceType":"INPUT","newClientOrderId":"b1"}]', 'f4496b6af2dadf1f8feaf35d3d2c74fc2ca706a6e587bc2d950bd4e00c245ee9'],
    ['batch Q alone', 'recvWindow=5000&timestamp=1668481902307', '18659d498e59cfcfab9be281e33ff6259314d3aab22618e4381d2a79408f7959'],
    ['GET', 'symbol=BTC-SWAP-USDT&recvWindow=5000&timestamp=1668481902307', 'ad56e7fec12e6d72db14dfd9e8e5522cc700f43bbb353213dbb02b015b811fc3'],
  ])('%s', (_name, text, expected) => {
    expect(signText(SECRET, text)).toBe(expected);
    // The transport's signer (its key prepared once) gives the same digest.
    expect(textSigner(SECRET)(text)).toBe(expected);
  });

  it('signs lowercase hex of 64 characters', () => {
    expect(signText(SECRET, 'x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('request signing by kind', () => {
  const client = new ExchangeClient({ baseUrl: 'http://127.0.0.1:9', credentials: { apiKey: 'k', apiSecret: SECRET }, time: new VirtualClock(), recvWindowMs: 5000 });

  it('GET: signs the raw query, parameter order preserved, signature last', () => {
    const wire = client.rest.buildSigned({ endpoint: ENDPOINTS.positions, query: orderedParams({ symbol: 'BTC-SWAP-USDT' }) }, 1668481902307);
    expect(wire.signedText).toBe('symbol=BTC-SWAP-USDT&recvWindow=5000&timestamp=1668481902307');
    expect(wire.url).toBe('http://127.0.0.1:9/api/v1/futures/positions?symbol=BTC-SWAP-USDT&recvWindow=5000&timestamp=1668481902307&signature=ad56e7fec12e6d72db14dfd9e8e5522cc700f43bbb353213dbb02b015b811fc3');
    expect(wire.body).toBeUndefined();
  });

  it('v1 form body: signs the body and appends &signature to it; never re-sorted', () => {
    const form = orderedParams({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: 1, price: dec('400') });
    const wire = client.rest.buildSigned({ endpoint: ENDPOINTS.orderV1Create, form }, 1668481902307);
    expect(wire.contentType).toBe('application/x-www-form-urlencoded');
    expect(wire.signedText).toBe('symbol=BTCUSDT&side=SELL&type=LIMIT&timeInForce=GTC&quantity=1&price=400&recvWindow=5000&timestamp=1668481902307');
    expect(wire.body).toBe(`${wire.signedText}&signature=${signText(SECRET, wire.signedText ?? '')}`);
  });

  it('v2 JSON: the body on the wire equals the signed bytes after the query; signature in the query', () => {
    const json = { symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'v2_001', quantity: dec(1), price: dec(30000) };
    const wire = client.rest.buildSigned({ endpoint: ENDPOINTS.orderV2Create, json }, 1668481902307);
    expect(wire.body).toBe('{"symbol":"BTC-SWAP-USDT","side":"BUY","positionSide":"LONG","type":"LIMIT","newClientOrderId":"v2_001","quantity":"1","price":"30000"}');
    expect(wire.signedText).toBe(`recvWindow=5000&timestamp=1668481902307${wire.body ?? ''}`);
    expect(wire.url.endsWith(`&signature=${signText(SECRET, wire.signedText ?? '')}`)).toBe(true);
  });

  it('writes small decimals without exponent notation', () => {
    const wire = client.rest.buildSigned({ endpoint: ENDPOINTS.orderV2Create, json: { quantity: dec('0.0000001') } }, 1);
    expect(wire.body).toBe('{"quantity":"0.0000001"}');
  });
});
