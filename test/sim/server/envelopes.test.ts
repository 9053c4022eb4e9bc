import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { PrefixRequest } from '../../../src/sim/server/index.js';
import type { TestServer } from './harness.js';
import { ADMIN_TOKEN, apiKeyHeader, json, send, signedTarget, startTestServer, TRADER } from './harness.js';

let t: TestServer;
let clock: VirtualClock;
const hookTimes: number[] = [];
const handlerErrors: string[] = [];
beforeEach(async () => {
  hookTimes.length = 0;
  handlerErrors.length = 0;
  clock = new VirtualClock(1_790_112_378_318);
  t = await startTestServer({ beforeRequest: (now) => hookTimes.push(now), onHandlerError: (_, route) => handlerErrors.push(route) }, clock);
});
afterEach(() => t.server.stop());

const signedGet = (path: string, query: string): ReturnType<typeof send> =>
  send(t.port, { method: 'GET', target: signedTarget(TRADER, path, `${query}${query === '' ? '' : '&'}timestamp=${clock.now()}`), headers: apiKeyHeader(TRADER) });

describe('envelopes (API-NOTES §3)', () => {
  it('v1 success: the data is the whole body, as JSON', async () => {
    const reply = await send(t.port, { method: 'GET', target: '/api/v1/time' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toContain('application/json');
    expect(reply.body).toBe(`{"serverTime":${clock.now()}}`);
  });

  it('v2 success wraps data as {code:200,msg:"success",data}; null data stays null', async () => {
    const reply = await send(t.port, { method: 'DELETE', target: signedTarget(TRADER, '/api/v2/futures/batch-orders', `symbol=X&timestamp=${clock.now()}`), headers: apiKeyHeader(TRADER) });
    expect(reply.body).toBe('{"code":200,"msg":"success","data":null}');
  });

  it('errors are {code,msg} with HTTP 400, on v1 and v2 routes alike', async () => {
    const v1 = await signedGet('/api/v1/futures/positions', 'symbol=NOPE');
    expect(v1.status).toBe(400);
    expect(v1.body).toBe('{"code":-1121,"msg":"Invalid symbol."}');
    const v2 = await signedGet('/api/v2/futures/order', 'orderId=1');
    expect(v2.status).toBe(400);
    expect(json(v2)).toEqual({ code: -2013, msg: 'Order does not exist.' });
  });

  it('a raw reply is sent as given (the empty markPrice body)', async () => {
    const reply = await send(t.port, { method: 'GET', target: '/quote/v1/markPrice?symbol=NOPE' });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('');
  });

  it('a handler that throws gives HTTP 500 with -1000 and is reported', async () => {
    const reply = await send(t.port, { method: 'GET', target: '/api/v1/exchangeInfo' });
    expect(reply.status).toBe(500);
    expect(json(reply)).toMatchObject({ code: -1000 });
    expect(handlerErrors).toEqual(['GET /api/v1/exchangeInfo']);
  });

  it('a body above the size limit gets 413 with a traceId', async () => {
    const small = await startTestServer({ maxBodyBytes: 64 }, new VirtualClock());
    try {
      const reply = await send(small.port, { method: 'POST', target: '/api/v1/futures/order', body: 'x'.repeat(65) });
      expect(reply.status).toBe(413);
      expect(reply.headers['traceid']).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      await small.server.stop();
    }
  });

  it('unknown paths and unknown methods on known paths are 404 with a small HTML body', async () => {
    for (const [method, target] of [['GET', '/api/v1/nope'], ['PATCH', '/api/v1/time'], ['GET', '/api/v2/copy-trading/follower/leaders/1/x']]) {
      const reply = await send(t.port, { method: method ?? 'GET', target: target ?? '/' });
      expect(reply.status).toBe(404);
      expect(reply.headers['content-type']).toContain('text/html');
      expect(reply.body).toContain('404');
    }
  });
});

describe('traceId', () => {
  it('is on every response: success, error, 404, 429-free public, admin and metrics', async () => {
    const replies = [
      await send(t.port, { method: 'GET', target: '/api/v1/time' }),
      await signedGet('/api/v1/futures/positions', ''),
      await send(t.port, { method: 'GET', target: '/nowhere' }),
      await send(t.port, { method: 'GET', target: '/api/v1/futures/balance' }),
      await send(t.port, { method: 'GET', target: '/admin/faults', headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }),
      await send(t.port, { method: 'GET', target: '/admin/faults' }),
      await send(t.port, { method: 'GET', target: '/metrics' }),
    ];
    const ids = replies.map((r) => r.headers['traceid']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('the same seed gives the same sequence', async () => {
    const other = await startTestServer({}, new VirtualClock());
    try {
      const ours = [(await send(t.port, { method: 'GET', target: '/x' })).headers['traceid'], (await send(t.port, { method: 'GET', target: '/api/v1/time' })).headers['traceid']];
      const theirs = [(await send(other.port, { method: 'GET', target: '/api/v1/time' })).headers['traceid'], (await send(other.port, { method: 'GET', target: '/y' })).headers['traceid']];
      expect(theirs).toEqual(ours);
    } finally {
      await other.server.stop();
    }
  });
});

describe('hooks and prefix mounts', () => {
  it('beforeRequest runs before each routed handler with the server time', async () => {
    await send(t.port, { method: 'GET', target: '/api/v1/time' });
    clock.advanceBy(1500);
    await send(t.port, { method: 'GET', target: '/api/v1/ping' });
    await send(t.port, { method: 'GET', target: '/unknown' });
    expect(hookTimes).toEqual([1_790_112_378_318, 1_790_112_379_818]);
  });

  it('a prefix mount sees method, stripped path, query, headers and raw body; undefined means 404', async () => {
    const seen: PrefixRequest[] = [];
    t.server.mountPrefix('/catalog', {
      handle: (request) => {
        seen.push(request);
        if (request.path === '/v1/products') return { status: 201, body: '{"success":true}', headers: { 'X-Extra': '1' } };
        return undefined;
      },
    });
    const created = await send(t.port, { method: 'POST', target: '/catalog/v1/products?page=2&x=%20', headers: { Authorization: 'Bearer c', 'Content-Type': 'application/json' }, body: '{"name":"a"}' });
    expect(created.status).toBe(201);
    expect(created.body).toBe('{"success":true}');
    expect(created.headers['content-type']).toBe('application/json');
    expect(created.headers['x-extra']).toBe('1');
    expect(created.headers['traceid']).toMatch(/^[0-9a-f]{32}$/);
    const first = seen[0];
    expect(first?.method).toBe('POST');
    expect(first?.path).toBe('/v1/products');
    expect(first?.query.get('page')).toBe('2');
    expect(first?.query.get('x')).toBe(' ');
    expect(first?.headers['authorization']).toBe('Bearer c');
    expect(first?.body).toBe('{"name":"a"}');
    expect(first?.now).toBe(clock.now());
    const missing = await send(t.port, { method: 'GET', target: '/catalog/v1/nothing' });
    expect(missing.status).toBe(404);
    expect((await send(t.port, { method: 'GET', target: '/catalogue' })).status).toBe(404);
    expect(hookTimes).toHaveLength(2);
  });

  it('mounting the same route or prefix twice throws', () => {
    expect(() => t.server.mount([{ endpoint: { method: 'GET', path: '/api/v1/time', security: 'NONE', weight: 1, ordersBudget: false, wire: 'v1', write: false, doc: '001' }, handle: () => ({ kind: 'ok', data: 1 }) }])).toThrow(/twice/);
    t.server.mountPrefix('/catalog', () => undefined);
    expect(() => t.server.mountPrefix('/catalog', () => undefined)).toThrow(/twice/);
  });
});
