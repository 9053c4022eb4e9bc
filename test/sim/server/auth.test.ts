import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { KeyringEntry } from '../../../src/sim/server/index.js';
import type { Echo, TestServer } from './harness.js';
import { apiKeyHeader, FOLLOWER, FOLLOWER_RO, JSON_TYPE, json, READ_ONLY, send, sign, signedTarget, startTestServer, TRADER } from './harness.js';

let t: TestServer;
let clock: VirtualClock;
beforeEach(async () => {
  clock = new VirtualClock(1_790_112_378_318);
  t = await startTestServer({}, clock);
});
afterEach(() => t.server.stop());

function getBalance(key: KeyringEntry, query: string, headers = apiKeyHeader(key)): ReturnType<typeof send> {
  return send(t.port, { method: 'GET', target: signedTarget(key, '/api/v1/futures/balance', query), headers });
}

describe('timestamps and recvWindow (API-NOTES §1.3)', () => {
  it('accepts a timestamp up to recvWindow old and less than 1000 ms ahead', async () => {
    const now = clock.now();
    for (const ts of [now - 5000, now, now + 999]) expect((await getBalance(TRADER, `timestamp=${ts}`)).status).toBe(200);
    expect((await getBalance(TRADER, `timestamp=${now - 60_000}&recvWindow=60000`)).status).toBe(200);
  });

  it('too old: -1021 outside the recvWindow (default 5000)', async () => {
    const reply = await getBalance(TRADER, `timestamp=${clock.now() - 5001}`);
    expect(reply.status).toBe(400);
    expect(json(reply)).toEqual({ code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
    expect(json(await getBalance(TRADER, `recvWindow=100&timestamp=${clock.now() - 101}`))).toMatchObject({ code: -1021 });
  });

  it('too new: -1021 1000 ms ahead', async () => {
    const reply = await getBalance(TRADER, `timestamp=${clock.now() + 1000}`);
    expect(json(reply)).toEqual({ code: -1021, msg: "Timestamp for this request was 1000ms ahead of the server's time." });
  });

  it('missing or malformed timestamp is -1102; recvWindow above 60000 or malformed is -1130', async () => {
    expect(json(await getBalance(TRADER, 'recvWindow=5000'))).toEqual({ code: -1102, msg: "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed." });
    expect(json(await getBalance(TRADER, 'timestamp=abc'))).toMatchObject({ code: -1102 });
    expect(json(await getBalance(TRADER, `recvWindow=60001&timestamp=${clock.now()}`))).toEqual({ code: -1130, msg: "Data sent for paramter 'recvWindow' is not valid." });
    expect(json(await getBalance(TRADER, `recvWindow=-5&timestamp=${clock.now()}`))).toMatchObject({ code: -1130 });
    expect(t.routes.count(ENDPOINTS.futuresBalance)).toBe(0);
  });

  it('the timestamp may travel in a form body', async () => {
    const body = `symbol=X&timestamp=${clock.now()}`;
    const reply = await send(t.port, { method: 'POST', target: '/api/v1/futures/order', headers: apiKeyHeader(TRADER, { 'Content-Type': 'application/x-www-form-urlencoded' }), body: `${body}&signature=${sign(TRADER, body)}` });
    expect(reply.status).toBe(200);
  });
});

describe('API keys and permissions (API-NOTES §1.4)', () => {
  const query = (): string => `timestamp=${clock.now()}`;

  it('-1107 without the X-BB-APIKEY header (or with an empty one)', async () => {
    const reply = await getBalance(TRADER, query(), {});
    expect(reply.status).toBe(400);
    expect(json(reply)).toEqual({ code: -1107, msg: 'API-key is empty.' });
    expect(json(await getBalance(TRADER, query(), { 'X-BB-APIKEY': '' }))).toMatchObject({ code: -1107 });
  });

  it('-2015 for an unknown key (keys are case-sensitive)', async () => {
    const reply = await getBalance(TRADER, query(), { 'X-BB-APIKEY': TRADER.apiKey.toUpperCase() });
    expect(json(reply)).toEqual({ code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
  });

  it('a signature made with another key\'s secret is -1022', async () => {
    const q = query();
    const reply = await send(t.port, { method: 'GET', target: `/api/v1/futures/balance?${q}&signature=${sign(READ_ONLY, q)}`, headers: apiKeyHeader(TRADER) });
    expect(json(reply)).toMatchObject({ code: -1022 });
  });

  it('a read-only key may read but not write (-1020)', async () => {
    expect((await getBalance(READ_ONLY, query())).status).toBe(200);
    const write = await send(t.port, { method: 'POST', target: signedTarget(READ_ONLY, '/api/v1/futures/leverage', `symbol=X&leverage=5&${query()}`), headers: apiKeyHeader(READ_ONLY) });
    expect(json(write)).toEqual({ code: -1020, msg: 'This operation is not supported.' });
    expect(t.routes.count(ENDPOINTS.leverage)).toBe(0);
  });

  it('follower routes need a COPY_TRADING key (-2015 naming it); read-only follower keys read but do not write', async () => {
    const refused = await send(t.port, { method: 'GET', target: signedTarget(TRADER, '/api/v2/copy-trading/follower/config', `leaderUserId=9&${query()}`), headers: apiKeyHeader(TRADER) });
    expect(refused.status).toBe(400);
    expect(json(refused)).toEqual({ code: -2015, msg: 'Invalid API-key, IP, or permissions for action. Required permission: COPY_TRADING.' });
    const allowed = await send(t.port, { method: 'GET', target: signedTarget(FOLLOWER_RO, '/api/v2/copy-trading/follower/config', `leaderUserId=9&${query()}`), headers: apiKeyHeader(FOLLOWER_RO) });
    expect(json(allowed)).toMatchObject({ code: 200, msg: 'success', data: { userId: '1004', params: { leaderUserId: '9' } } });
    const q = query();
    const body = '{"leaderUserId":123456789,"symbolId":"BTC-SWAP-USDT"}';
    const put = await send(t.port, { method: 'PUT', target: `/api/v2/copy-trading/follower/config?${q}&signature=${sign(FOLLOWER_RO, q + body)}`, headers: apiKeyHeader(FOLLOWER_RO, JSON_TYPE), body });
    expect(json(put)).toMatchObject({ code: -1020 });
    const putOk = await send(t.port, { method: 'PUT', target: `/api/v2/copy-trading/follower/config?${q}&signature=${sign(FOLLOWER, q + body)}`, headers: apiKeyHeader(FOLLOWER, JSON_TYPE), body });
    expect(json(putOk)).toEqual({ code: 200, msg: 'success', data: null });
  });

  it('path templates: DELETE /leaders/{leaderUserId} reaches its route', async () => {
    const reply = await send(t.port, { method: 'DELETE', target: signedTarget(FOLLOWER, '/api/v2/copy-trading/follower/leaders/123456789', query()), headers: apiKeyHeader(FOLLOWER) });
    expect(json(reply)).toEqual({ code: 200, msg: 'success', data: null });
  });

  it('USER_STREAM accepts the key alone, verifies a signature when one is sent', async () => {
    const alone = await send(t.port, { method: 'POST', target: '/api/v1/listenKey', headers: apiKeyHeader(TRADER) });
    expect(json(alone)).toEqual({ listenKey: 'key-of-1001' });
    const signed = await send(t.port, { method: 'POST', target: signedTarget(TRADER, '/api/v1/listenKey', query()), headers: apiKeyHeader(TRADER) });
    expect(signed.status).toBe(200);
    const badSig = await send(t.port, { method: 'POST', target: signedTarget(READ_ONLY, '/api/v1/listenKey', query()), headers: apiKeyHeader(TRADER) });
    expect(json(badSig)).toMatchObject({ code: -1022 });
    const stale = await send(t.port, { method: 'POST', target: signedTarget(TRADER, '/api/v1/listenKey', `timestamp=${clock.now() - 10_000}`), headers: apiKeyHeader(TRADER) });
    expect(json(stale)).toMatchObject({ code: -1021 });
    expect(json(await send(t.port, { method: 'POST', target: '/api/v1/listenKey' }))).toMatchObject({ code: -1107 });
  });

  it('unknown headers are ignored; public routes need no key', async () => {
    const reply = await send(t.port, { method: 'GET', target: '/api/v1/time', headers: { 'X-BB-API-PLATFORM': 'ccxt', Referrer: 'x', 'X-BB-APIKEY': 'whatever' } });
    expect(json(reply)).toEqual({ serverTime: clock.now() });
  });
});

describe('category', () => {
  it('USDT by default, USDC when sent, -1130 otherwise', async () => {
    const now = clock.now();
    expect((json(await getBalance(TRADER, `timestamp=${now}`)) as Echo).category).toBe('USDT');
    expect((json(await getBalance(TRADER, `category=USDC&timestamp=${now}`)) as Echo).category).toBe('USDC');
    expect(json(await getBalance(TRADER, `category=BTC&timestamp=${now}`))).toEqual({ code: -1130, msg: "Data sent for paramter 'category' is not valid." });
    expect(json(await send(t.port, { method: 'GET', target: '/quote/v1/depth?symbol=X&category=usdc' }))).toMatchObject({ code: -1130 });
  });
});
