import { VirtualClock } from '../../../src/core/virtual-time.js';
import { NO_FAULTS } from '../../../src/sim/config/fault-settings.js';
import type { Caller, RequestParams, RouteContext, RouteReply, SimRoute } from '../../../src/sim/server/routing/types.js';
import { ListenKeyRegistry, USER_DATA_STREAM_ENDPOINTS, listenKeyRoutes } from '../../../src/sim/user-stream/index.js';
import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import type { HttpMethod } from '../../../src/protocol/endpoints.js';
import { emptyObject, listenKeySchema } from '../../../src/venue/parsers/user-stream.js';
import { T0, USER } from './fixtures.js';

class Params implements RequestParams {
  private readonly values: ReadonlyMap<string, string>;
  constructor(values: Readonly<Record<string, string>> = {}) {
    this.values = new Map(Object.entries(values));
  }
  get(name: string): string | undefined {
    return this.values.get(name);
  }
  has(name: string): boolean {
    return this.values.has(name);
  }
  names(): readonly string[] {
    return [...this.values.keys()];
  }
}

const CALLER: Caller = { apiKey: 'simTraderKey', userId: USER, readOnly: false, accountType: 'FUTURES' };

function context(params: Readonly<Record<string, string>> = {}, category: 'USDT' | 'USDC' = 'USDT', caller: Caller = CALLER): RouteContext {
  return { now: T0, params: new Params(params), json: undefined, pathParams: {}, caller, category };
}

function setup() {
  const clock = new VirtualClock(T0);
  const registry = new ListenKeyRegistry({ time: clock, faults: () => NO_FAULTS, seed: 3 });
  const routes = listenKeyRoutes(registry);
  const route = (method: HttpMethod, path: string): SimRoute => {
    const found = routes.find((r) => r.endpoint.method === method && r.endpoint.path === path);
    if (found === undefined) throw new Error(`no route ${method} ${path}`);
    return found;
  };
  const call = async (method: HttpMethod, path: string, ctx: RouteContext): Promise<RouteReply> => route(method, path).handle(ctx);
  return { clock, registry, routes, call };
}

function listenKeyOf(reply: RouteReply): string {
  if (reply.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(reply)}`);
  // The project client's own parser for this answer.
  return listenKeySchema.parse(reply.data).listenKey;
}

const PATHS = ['/api/v1/listenKey', '/api/v1/userDataStream'] as const;

describe('listen-key routes', () => {
  it('serve POST, PUT and DELETE on both paths with the listenKey endpoints’ security and weight', () => {
    const { routes } = setup();
    expect(routes.map((r) => `${r.endpoint.method} ${r.endpoint.path}`)).toEqual([
      'POST /api/v1/listenKey',
      'PUT /api/v1/listenKey',
      'DELETE /api/v1/listenKey',
      'POST /api/v1/userDataStream',
      'PUT /api/v1/userDataStream',
      'DELETE /api/v1/userDataStream',
    ]);
    expect(routes[0]?.endpoint).toBe(ENDPOINTS.listenKeyCreate);
    for (const [alias, original] of [
      [USER_DATA_STREAM_ENDPOINTS.create, ENDPOINTS.listenKeyCreate],
      [USER_DATA_STREAM_ENDPOINTS.keepalive, ENDPOINTS.listenKeyKeepalive],
      [USER_DATA_STREAM_ENDPOINTS.close, ENDPOINTS.listenKeyClose],
    ] as const) {
      expect({ ...alias, path: original.path, doc: original.doc }).toEqual(original);
    }
  });

  it.each(PATHS)('%s: POST answers {listenKey}, a repeat POST (ccxt’s refresh) the same key, PUT and DELETE {}', async (path) => {
    const { call, registry } = setup();
    const key = listenKeyOf(await call('POST', path, context()));
    expect(listenKeyOf(await call('POST', path, context()))).toBe(key);
    const put = await call('PUT', path, context({ listenKey: key }));
    expect(put.kind === 'ok' && emptyObject.safeParse(put.data).success).toBe(true);
    expect(put).toEqual({ kind: 'ok', data: {} });
    const del = await call('DELETE', path, context({ listenKey: key }));
    expect(del).toEqual({ kind: 'ok', data: {} });
    expect(registry.find(key)).toBeUndefined();
  });

  it('a key made on one path is the same key on the other', async () => {
    const { call } = setup();
    const key = listenKeyOf(await call('POST', '/api/v1/listenKey', context()));
    expect(listenKeyOf(await call('POST', '/api/v1/userDataStream', context()))).toBe(key);
    expect(await call('PUT', '/api/v1/userDataStream', context({ listenKey: key }))).toEqual({ kind: 'ok', data: {} });
  });

  it('category=USDC gets a separate key for the USDC-M account', async () => {
    const { call, registry } = setup();
    const usdt = listenKeyOf(await call('POST', '/api/v1/listenKey', context()));
    const usdc = listenKeyOf(await call('POST', '/api/v1/listenKey', context({ category: 'USDC' }, 'USDC')));
    expect(usdc).not.toBe(usdt);
    expect(registry.find(usdc)?.account).toEqual({ userId: USER, category: 'USDC' });
  });

  it.each(PATHS)('%s: missing or empty listenKey on PUT/DELETE → -1102; unknown → -1125', async (path) => {
    const { call } = setup();
    for (const method of ['PUT', 'DELETE'] as const) {
      expect(await call(method, path, context())).toMatchObject({ kind: 'error', code: -1102 });
      expect(await call(method, path, context({ listenKey: '' }))).toMatchObject({ kind: 'error', code: -1102 });
      expect(await call(method, path, context({ listenKey: 'zUeuthxEYbqupygpYQKPTgDemAQWXJdrpzVhmVOSKSDUzMWzIAVgPgYbDLuxBpNu' }))).toEqual({
        kind: 'error',
        code: -1125,
        msg: 'This listenKey does not exist.',
      });
    }
  });

  it('another user cannot keep alive or delete a key', async () => {
    const { call, registry } = setup();
    const key = listenKeyOf(await call('POST', '/api/v1/listenKey', context()));
    const other: Caller = { ...CALLER, apiKey: 'simSubAccountKey', userId: '879145609' };
    expect(await call('DELETE', '/api/v1/listenKey', context({ listenKey: key }, 'USDT', other))).toMatchObject({ kind: 'error', code: -1125 });
    expect(registry.find(key)).toBeDefined();
  });
});
