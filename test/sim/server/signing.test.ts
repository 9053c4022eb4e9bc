import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { signatureMatches } from '../../../src/sim/server/authenticate.js';
import { NO_BODY } from '../../../src/sim/server/request-body.js';
import { cutSignature } from '../../../src/sim/server/signature-parts.js';
import type { Echo, TestServer } from './harness.js';
import { apiKeyHeader, DOCS_KEY, DOCS_SECRET, FORM, JSON_TYPE, json, send, sign, signedTarget, startTestServer, TRADER } from './harness.js';

/** API-NOTES §1.5 vectors, all at the docs' timestamp. */
const VECTOR_TIME = 1668481902307;
const A = 'symbol=BTCUSDT&side=SELL&type=LIMIT&timeInForce=GTC&quantity=1&price=400&recvWindow=100000&timestamp=1668481902307';
const A_HEX = '8420e499e71cce4a00946db16543198b6bcae01791bdb75a06b5a7098b156468';
const B_QUERY = 'symbol=BTCUSDT&side=SELL&type=LIMIT&timeInForce=GTC';
const B_BODY = 'quantity=1&price=400&recvWindow=10000000&timestamp=1668481902307';
const B_HEX = '59ef0b2085ebb99cca5b6445c202d99add17be2d5d1861c0f4aa17bc785ac4d5';
const C_QUERY = 'timestamp=1668481902307&recvWindow=5000';
const C_BODY = '{"symbol":"BTC-SWAP-USDT","side":"BUY","positionSide":"LONG","type":"LIMIT","newClientOrderId":"v2_001","quantity":"1","price":"30000"}';
const C_HEX = '18fc417aaed8bab6af784dc6c6d5c1ca3dd4e934836ad0746d9e7602a4318b51';
const BATCH_Q = 'recvWindow=5000&timestamp=1668481902307';
const BATCH_B = '[{"symbol":"BTC-SWAP-USDT","side":"BUY_OPEN","type":"LIMIT","price":"16500","quantity":"10","priceType":"INPUT","newClientOrderId":"b1"}]';
const BATCH_QB = 'f4496b6af2dadf1f8feaf35d3d2c74fc2ca706a6e587bc2d950bd4e00c245ee9';
const BATCH_BQ = '28a57566483dc21fa98bf74a557186412c2f765c96466097b28af7898ecdefdc';
const BATCH_Q_ONLY = '18659d498e59cfcfab9be281e33ff6259314d3aab22618e4381d2a79408f7959';
const GET_Q = 'symbol=BTC-SWAP-USDT&recvWindow=5000&timestamp=1668481902307';
const GET_HEX = 'ad56e7fec12e6d72db14dfd9e8e5522cc700f43bbb353213dbb02b015b811fc3';

function flip(hex: string): string {
  return (hex[0] === 'a' ? 'b' : 'a') + hex.slice(1);
}

describe('signature verification of the API-NOTES §1.5 vectors (pure)', () => {
  const parts = (query: string, body: string, signature: string) => ({ query, body, signature });
  it('A, B, C, GET and the batch variants verify with the docs secret', () => {
    expect(signatureMatches(DOCS_SECRET, parts(A, '', A_HEX), false)).toBe(true);
    expect(signatureMatches(DOCS_SECRET, parts(B_QUERY, B_BODY, B_HEX), false)).toBe(true);
    expect(signatureMatches(DOCS_SECRET, parts(C_QUERY, C_BODY, C_HEX), false)).toBe(true);
    expect(signatureMatches(DOCS_SECRET, parts(GET_Q, '', GET_HEX), false)).toBe(true);
    for (const hex of [BATCH_QB, BATCH_BQ, BATCH_Q_ONLY]) expect(signatureMatches(DOCS_SECRET, parts(BATCH_Q, BATCH_B, hex), true)).toBe(true);
  });

  it('non-batch routes accept only query + body; uppercase hex never matches', () => {
    expect(signatureMatches(DOCS_SECRET, parts(BATCH_Q, BATCH_B, BATCH_BQ), false)).toBe(false);
    expect(signatureMatches(DOCS_SECRET, parts(BATCH_Q, BATCH_B, BATCH_Q_ONLY), false)).toBe(false);
    expect(signatureMatches(DOCS_SECRET, parts(A, '', A_HEX.toUpperCase()), false)).toBe(false);
  });

  it('cuts the signature pair from the query, keeping every other byte', () => {
    expect(cutSignature(`a=%2C1&signature=${A_HEX}&b=2`, NO_BODY)).toEqual({ query: 'a=%2C1&b=2', body: '', signature: A_HEX });
    expect(cutSignature('a=1&signature=', NO_BODY).signature).toBeUndefined();
  });
});

describe('signing variants over HTTP', () => {
  let t: TestServer;
  let clock: VirtualClock;
  beforeEach(async () => {
    clock = new VirtualClock(VECTOR_TIME);
    t = await startTestServer({}, clock);
  });
  afterEach(() => t.server.stop());

  const docsHeaders = (extra: Record<string, string> = {}): Record<string, string> => apiKeyHeader(DOCS_KEY, extra);

  it('vector A as a form body and as a query passes the signature check (then fails recvWindow 100000 with -1130)', async () => {
    const form = await send(t.port, { method: 'POST', target: '/api/v1/futures/order', headers: docsHeaders(FORM), body: `${A}&signature=${A_HEX}` });
    expect(form.status).toBe(400);
    expect(json(form)).toEqual({ code: -1130, msg: "Data sent for paramter 'recvWindow' is not valid." });
    const query = await send(t.port, { method: 'GET', target: `/api/v1/futures/balance?${A}&signature=${A_HEX}`, headers: docsHeaders() });
    expect(json(query)).toMatchObject({ code: -1130 });
    const tampered = await send(t.port, { method: 'POST', target: '/api/v1/futures/order', headers: docsHeaders(FORM), body: `${A}&signature=${flip(A_HEX)}` });
    expect(json(tampered)).toEqual({ code: -1022, msg: 'Signature for this request is not valid.' });
    expect(t.routes.count(ENDPOINTS.orderV1Create)).toBe(0);
  });

  it('vector B: query then body with no & at the join, signature at the end of the body', async () => {
    const reply = await send(t.port, { method: 'POST', target: `/api/v1/futures/order?${B_QUERY}`, headers: docsHeaders(FORM), body: `${B_BODY}&signature=${B_HEX}` });
    expect(json(reply)).toMatchObject({ code: -1130, msg: "Data sent for paramter 'recvWindow' is not valid." });
  });

  it('vector C: v2 JSON signed as query + raw body is accepted and parsed', async () => {
    const reply = await send(t.port, { method: 'POST', target: `/api/v2/futures/order?${C_QUERY}&signature=${C_HEX}`, headers: docsHeaders(JSON_TYPE), body: C_BODY });
    expect(reply.status).toBe(200);
    const body = json(reply) as { code: number; data: Echo };
    expect(body.code).toBe(200);
    expect(body.data.json).toEqual(JSON.parse(C_BODY));
    expect(body.data.params).toEqual({ timestamp: '1668481902307', recvWindow: '5000' });
  });

  it('GET vector: the raw query is signed', async () => {
    const reply = await send(t.port, { method: 'GET', target: `/api/v1/futures/balance?${GET_Q}&signature=${GET_HEX}`, headers: docsHeaders() });
    expect(reply.status).toBe(200);
    expect((json(reply) as Echo).params).toEqual({ symbol: 'BTC-SWAP-USDT', recvWindow: '5000', timestamp: '1668481902307' });
  });

  it.each([
    ['query + body', BATCH_QB],
    ['body + query', BATCH_BQ],
    ['query alone', BATCH_Q_ONLY],
  ])('batch routes (v1 and v2) accept %s', async (_, hex) => {
    for (const path of ['/api/v1/futures/batchOrders', '/api/v2/futures/batch-orders']) {
      const reply = await send(t.port, { method: 'POST', target: `${path}?${BATCH_Q}&signature=${hex}`, headers: docsHeaders(JSON_TYPE), body: BATCH_B });
      expect(reply.status).toBe(200);
    }
  });

  it('batch routes parse a JSON array under a form Content-Type; a non-batch route refuses body + query', async () => {
    const reply = await send(t.port, { method: 'POST', target: `/api/v1/futures/batchOrders?${BATCH_Q}&signature=${BATCH_Q_ONLY}`, headers: docsHeaders(FORM), body: BATCH_B });
    expect(reply.status).toBe(200);
    expect((json(reply) as Echo).json).toEqual(JSON.parse(BATCH_B));
    const v2 = await send(t.port, { method: 'POST', target: `/api/v2/futures/order?${BATCH_Q}&signature=${BATCH_BQ}`, headers: docsHeaders(JSON_TYPE), body: BATCH_B });
    expect(json(v2)).toMatchObject({ code: -1022 });
  });

  it('uppercase hex is refused with -1022', async () => {
    const reply = await send(t.port, { method: 'GET', target: `/api/v1/futures/balance?${GET_Q}&signature=${GET_HEX.toUpperCase()}`, headers: docsHeaders() });
    expect(reply.status).toBe(400);
    expect(json(reply)).toMatchObject({ code: -1022 });
  });

  it('a missing or empty signature is -1102', async () => {
    const missing = await send(t.port, { method: 'GET', target: `/api/v1/futures/balance?${GET_Q}`, headers: docsHeaders() });
    expect(json(missing)).toEqual({ code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." });
    const empty = await send(t.port, { method: 'GET', target: `/api/v1/futures/balance?${GET_Q}&signature=`, headers: docsHeaders() });
    expect(json(empty)).toMatchObject({ code: -1102 });
  });

  describe('with the trader key at the current time', () => {
    const auth = (): string => `recvWindow=5000&timestamp=${clock.now()}`;

    it('v1 form body with the signature at its end (POST and DELETE)', async () => {
      const body = `symbol=BTC-SWAP-USDT&side=BUY_OPEN&quantity=1&${auth()}`;
      for (const [method, path] of [['POST', '/api/v1/futures/order'], ['DELETE', '/api/v1/futures/order']] as const) {
        const reply = await send(t.port, { method, target: path, headers: apiKeyHeader(TRADER, FORM), body: `${body}&signature=${sign(TRADER, body)}` });
        expect(reply.status).toBe(200);
        expect((json(reply) as Echo).params).toMatchObject({ symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', quantity: '1' });
      }
    });

    it('v1 POST with everything in the query and an empty body', async () => {
      const reply = await send(t.port, { method: 'POST', target: signedTarget(TRADER, '/api/v1/futures/order', `symbol=BTC-SWAP-USDT&${auth()}`), headers: apiKeyHeader(TRADER) });
      expect(reply.status).toBe(200);
      expect((json(reply) as Echo).params['symbol']).toBe('BTC-SWAP-USDT');
    });

    it('mixed: auth and signature in the query, business params in the body (JKorf); & at the join fails', async () => {
      const query = auth();
      const body = 'symbol=BTC-SWAP-USDT&quantity=2';
      const ok = await send(t.port, { method: 'POST', target: `/api/v1/futures/order?${query}&signature=${sign(TRADER, query + body)}`, headers: apiKeyHeader(TRADER, FORM), body });
      expect(ok.status).toBe(200);
      expect((json(ok) as Echo).params).toMatchObject({ symbol: 'BTC-SWAP-USDT', quantity: '2', timestamp: String(clock.now()) });
      const joined = await send(t.port, { method: 'POST', target: `/api/v1/futures/order?${query}&signature=${sign(TRADER, `${query}&${body}`)}`, headers: apiKeyHeader(TRADER, FORM), body });
      expect(json(joined)).toMatchObject({ code: -1022 });
    });

    it('the query wins over the body on duplicates; values decode only after hashing', async () => {
      const query = `symbol=A%2CB&${auth()}`;
      const body = 'symbol=C&note=x+y';
      const reply = await send(t.port, { method: 'POST', target: `/api/v1/futures/order?${query}`, headers: apiKeyHeader(TRADER, FORM), body: `${body}&signature=${sign(TRADER, query + body)}` });
      expect((json(reply) as Echo).params).toMatchObject({ symbol: 'A,B', note: 'x y' });
    });

    it('pretty JSON: accepted when signed without its line breaks, -1022 when signed with them', async () => {
      const query = auth();
      const pretty = '{\r\n  "symbol": "BTC-SWAP-USDT",\n  "quantity": "1"\n}';
      const stripped = pretty.replace(/[\r\n]/g, '');
      const ok = await send(t.port, { method: 'POST', target: `/api/v2/futures/order?${query}&signature=${sign(TRADER, query + stripped)}`, headers: apiKeyHeader(TRADER, JSON_TYPE), body: pretty });
      expect(ok.status).toBe(200);
      expect((json(ok) as { data: Echo }).data.json).toEqual({ symbol: 'BTC-SWAP-USDT', quantity: '1' });
      const asSent = await send(t.port, { method: 'POST', target: `/api/v2/futures/order?${query}&signature=${sign(TRADER, query + pretty)}`, headers: apiKeyHeader(TRADER, JSON_TYPE), body: pretty });
      expect(json(asSent)).toMatchObject({ code: -1022 });
    });

    it('v2 JSON that does not start with { or [ is -1130; a v2 form body is accepted', async () => {
      const query = auth();
      const notJson = 'symbol=BTC-SWAP-USDT';
      const bad = await send(t.port, { method: 'POST', target: `/api/v2/futures/order?${query}&signature=${sign(TRADER, query + notJson)}`, headers: apiKeyHeader(TRADER, JSON_TYPE), body: notJson });
      expect(bad.status).toBe(400);
      expect(json(bad)).toMatchObject({ code: -1130 });
      const form = await send(t.port, { method: 'POST', target: `/api/v2/futures/order?${query}&signature=${sign(TRADER, query + notJson)}`, headers: apiKeyHeader(TRADER, FORM), body: notJson });
      expect(form.status).toBe(200);
      expect((json(form) as { data: Echo }).data.params['symbol']).toBe('BTC-SWAP-USDT');
    });

    it('a GET body is neither hashed nor decoded', async () => {
      const query = auth();
      const reply = await send(t.port, { method: 'GET', target: signedTarget(TRADER, '/api/v1/futures/balance', query), headers: apiKeyHeader(TRADER, FORM), body: 'symbol=X' });
      expect(reply.status).toBe(200);
      expect((json(reply) as Echo).params['symbol']).toBeUndefined();
    });
  });
});
