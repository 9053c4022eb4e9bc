import type { z } from 'zod';
import { SimExchange } from '../../../src/sim/engine/sim-exchange.js';
import type { Category } from '../../../src/sim/engine/types.js';
import { tradingRoutes } from '../../../src/sim/routes/index.js';
import type { RouteReply, SimRoute } from '../../../src/sim/server/routing/types.js';
import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import type { EndpointName } from '../../../src/protocol/endpoints.js';
import { parseWire } from '../../../src/venue/wire/schema.js';
import { requestParams } from './fixtures.js';

export const T0 = Date.UTC(2026, 0, 5, 12);
export const PARENT = '7001';
export const SUB = '7002';

/**
 * The trading routes over a real SimExchange, called with hand-built RouteContexts (no HTTP: the server
 * is another helper's). The market is pushed event by event, so time is the events' time.
 */
export class RouteHarness {
  readonly exchange: SimExchange;
  private readonly routes: ReadonlyMap<string, SimRoute>;
  private time = T0;

  constructor() {
    this.exchange = new SimExchange({
      startTime: T0,
      users: [
        { userId: PARENT, email: 'parent@example.com', balances: { FUTURES: { USDT: '100000', USDC: '5000' }, MAIN: { USDT: '1000' } } },
        { userId: SUB, email: 'sub@example.com', remark: 'desk', parentUserId: PARENT, balances: { FUTURES: { USDT: '100' } } },
      ],
    });
    this.routes = new Map(tradingRoutes(this.exchange).map((r) => [key(r.endpoint.method, r.endpoint.path), r]));
    this.market('BTC-SWAP-USDT', '100000');
    this.market('ETH-SWAP-USDT', '4000');
  }

  /** A book around `mid` (ten contracts a level, one tick apart), a trade and a mark at `mid`. */
  market(symbol: string, mid: string, tick = symbol.startsWith('BTC') ? '0.1' : '0.01'): void {
    this.time += 1000;
    const ts = this.time;
    const level = (i: number): string => (Number(mid) + i * Number(tick)).toFixed(tick.split('.')[1]?.length ?? 0);
    this.exchange.applyMarketEvent({ type: 'depth', ts, symbol, bids: [1, 2, 3].map((i) => [level(-i), '100'] as const), asks: [1, 2, 3].map((i) => [level(i), '100'] as const) });
    this.exchange.applyMarketEvent({ type: 'trade', ts, symbol, id: String(ts), price: mid, qty: '1', buyerIsMaker: false });
    this.exchange.applyMarketEvent({ type: 'mark', ts, symbol, price: mid });
  }

  route(name: EndpointName): SimRoute {
    const e = ENDPOINTS[name];
    const route = this.routes.get(key(e.method, e.path));
    if (route === undefined) throw new Error(`no route for ${name}`);
    return route;
  }

  async call(name: EndpointName, request: { params?: Record<string, string>; json?: unknown; userId?: string; category?: Category } = {}): Promise<RouteReply> {
    return this.route(name).handle({
      now: this.time,
      params: requestParams(request.params ?? {}),
      json: request.json,
      pathParams: {},
      caller: { apiKey: 'key', userId: request.userId ?? PARENT, readOnly: false, accountType: 'FUTURES' },
      category: request.category ?? 'USDT',
    });
  }

  /** The payload as a client receives it (JSON text round trip); throws on a refusal. */
  async data(name: EndpointName, request: Parameters<RouteHarness['call']>[1] = {}): Promise<unknown> {
    const reply = await this.call(name, request);
    if (reply.kind !== 'ok') throw new Error(`${name} refused: ${JSON.stringify(reply)}`);
    return JSON.parse(JSON.stringify(reply.data)) as unknown;
  }

  /** The refusal code (or 'ok'). */
  async code(name: EndpointName, request: Parameters<RouteHarness['call']>[1] = {}): Promise<number | 'ok'> {
    const reply = await this.call(name, request);
    return reply.kind === 'error' ? reply.code : 'ok';
  }

  /** Calls the route and reads the payload with one of the project client's parsers. */
  async parsed<S extends z.ZodType>(name: EndpointName, schema: S, request: Parameters<RouteHarness['call']>[1] = {}): Promise<z.output<S>> {
    const wire = await this.data(name, request);
    const parsed = parseWire(schema, wire, name);
    if (!parsed.ok) throw new Error(`${name}: client parser refused ${parsed.error.field ?? ''}: ${parsed.error.message}\n${JSON.stringify(wire)}`);
    return parsed.value;
  }
}

function key(method: string, path: string): string {
  return `${method} ${path}`;
}
