import type { z } from 'zod';
import type { SimLeaderConfig } from '../../../src/sim/config/sim-config.js';
import { CopyTradingDesk, followerRoutes } from '../../../src/sim/copy-trading/index.js';
import type { LeaderTrade } from '../../../src/sim/copy-trading/index.js';
import type { SimUserSetup } from '../../../src/sim/engine/sim-exchange.js';
import { SimExchange } from '../../../src/sim/engine/sim-exchange.js';
import { MarketGenerator } from '../../../src/sim/market-stream/generator.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../../src/sim/market-stream/instruments.js';
import type { SimInstrument } from '../../../src/sim/market-stream/instruments.js';
import type { RequestParams, RouteContext, RouteReply, SimRoute } from '../../../src/sim/server/routing/types.js';
import type { EndpointName } from '../../../src/protocol/endpoints.js';
import { ENDPOINTS, endpointLabel } from '../../../src/protocol/endpoints.js';
import { parseWire } from '../../../src/venue/wire/schema.js';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
/** 2026-01-01 00:00 UTC. */
export const T0 = Date.UTC(2026, 0, 1);
export const BTC = 'BTC-SWAP-USDT';
export const ETH = 'ETH-SWAP-USDT';
export const INSTRUMENTS: readonly SimInstrument[] = [BTC_SWAP_USDT, ETH_SWAP_USDT];

export const FOLLOWER = '879147777';

/** The sim config's two leaders (config/sim.yml), decisions made faster so a short span sees many. */
export const S5: SimLeaderConfig = {
  leaderUserId: '123456789',
  nickname: 'S5',
  symbols: [BTC, ETH],
  marginType: 'CROSS',
  leverage: 20,
  meanDecisionIntervalMs: 5 * MINUTE,
  marginBalance: '10000',
};
export const TORTOISE: SimLeaderConfig = {
  leaderUserId: '123456790',
  nickname: 'Tortoise',
  symbols: [ETH],
  marginType: 'ISOLATED',
  leverage: 5,
  meanDecisionIntervalMs: 8 * MINUTE,
  marginBalance: '10000',
};

export function followerUser(userId: string, usdt = '20000'): SimUserSetup {
  return { userId, email: `f${userId}@sim.stratd.local`, balances: { COPY_TRADING: { USDT: usdt } } };
}

export interface Rig {
  readonly ex: SimExchange;
  readonly desk: CopyTradingDesk;
  readonly routes: readonly SimRoute[];
  readonly trades: LeaderTrade[];
}

/** A SimExchange and a desk; the desk follows every market event, as the composition root wires it. */
function rig(ex: SimExchange, leaders: readonly SimLeaderConfig[], seed: number): Rig {
  const desk = new CopyTradingDesk({ venue: ex, leaders, seed });
  ex.onMarketEvent((event) => desk.advanceTo(event.ts));
  const trades: LeaderTrade[] = [];
  desk.onLeaderTrade((t) => trades.push(t));
  return { ex, desk, routes: followerRoutes(desk), trades };
}

/** A SimExchange fed by a seeded MarketGenerator (trades and marks only, to stay fast). */
export function generatedRig(options: { readonly seed: number; readonly users: readonly SimUserSetup[]; readonly leaders: readonly SimLeaderConfig[]; readonly start?: number }): Rig {
  const start = options.start ?? T0;
  const feed = new MarketGenerator({ seed: options.seed, startTime: start, instruments: INSTRUMENTS, channels: ['trade', 'mark'], markIntervalMs: 5000 });
  const ex = new SimExchange({ users: options.users, startTime: start, instruments: INSTRUMENTS, feed });
  return rig(ex, options.leaders, options.seed);
}

/** A SimExchange whose prices the test sets by hand. */
export function handRig(options: { readonly seed: number; readonly users: readonly SimUserSetup[]; readonly leaders: readonly SimLeaderConfig[]; readonly start?: number }): Rig {
  const ex = new SimExchange({ users: options.users, startTime: options.start ?? T0, instruments: INSTRUMENTS });
  return rig(ex, options.leaders, options.seed);
}

let tradeIds = 0;
/** Sets last and mark price of `symbol` at `ts`. */
export function setPrice(ex: SimExchange, ts: number, symbol: string, price: string, mark = price): void {
  ex.applyMarketEvent({ type: 'trade', ts, symbol, id: String(++tradeIds), price, qty: '1', buyerIsMaker: false });
  ex.applyMarketEvent({ type: 'mark', ts, symbol, price: mark });
}

/** Advances engine (and so desk) to `time` in steps of `step`. */
export function runTo(r: Rig, time: number, step = MINUTE): void {
  for (let t = r.ex.now() + step; t < time; t += step) {
    r.ex.advanceTo(t);
    r.desk.advanceTo(t);
  }
  r.ex.advanceTo(time);
  r.desk.advanceTo(time);
}

function params(record: Readonly<Record<string, string>>): RequestParams {
  return {
    get: (name) => record[name],
    has: (name) => Object.prototype.hasOwnProperty.call(record, name),
    names: () => Object.keys(record),
  };
}

export interface Call {
  readonly query?: Readonly<Record<string, string>>;
  readonly json?: unknown;
  readonly path?: Readonly<Record<string, string>>;
  readonly userId?: string;
}

/** Calls a follower route as the server would, with a COPY_TRADING caller. */
export function call(r: Rig, name: EndpointName, c: Call = {}): RouteReply {
  const endpoint = ENDPOINTS[name];
  const route = r.routes.find((x) => x.endpoint === endpoint);
  if (route === undefined) throw new Error(`no route for ${name}`);
  const ctx: RouteContext = {
    now: r.ex.now(),
    params: params(c.query ?? {}),
    json: c.json,
    pathParams: c.path ?? {},
    caller: { apiKey: 'copyKey', userId: c.userId ?? FOLLOWER, readOnly: false, accountType: 'COPY_TRADING' },
    category: 'USDT',
  };
  const reply = route.handle(ctx);
  if (reply instanceof Promise) throw new Error('follower routes answer synchronously');
  return reply;
}

/** The reply's `data`, after the same round trip a client sees: JSON text in the v2 wrapper. */
export function okData(reply: RouteReply): unknown {
  if (reply.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(reply)}`);
  const body = JSON.parse(`{"code":200,"msg":"success","data":${JSON.stringify(reply.data)}}`) as { data: unknown };
  return body.data;
}

/** The reply parsed with the project client's own schema (src/venue/parsers/follower.ts). */
export function parsed<S extends z.ZodType>(reply: RouteReply, schema: S, name: EndpointName): z.output<S> {
  const result = parseWire(schema, okData(reply), endpointLabel(ENDPOINTS[name]));
  if (!result.ok) throw new Error(`client parser refused ${name}: ${result.error.message} at ${String(result.error.field)}`);
  return result.value;
}

export function errorOf(reply: RouteReply): { readonly code: number; readonly msg: string } {
  if (reply.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(reply)}`);
  return { code: reply.code, msg: reply.msg };
}

/** A valid PUT /config body as the docs send it: leaderUserId a bare number, decimals strings. */
export function configBody(leaderUserId: string, patch: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    leaderUserId: Number(leaderUserId),
    investAmount: '1000',
    singlePlaceAmount: '100',
    dailyMaxInvestAmount: '0',
    leverage: '10',
    maxInvestRate: '0.2',
    stopProfitRate: '0',
    stopLossRate: '0',
    realInvestAmount: '1000',
    isolatedReservedAmount: '0',
    followAmountMode: 0,
    stopLossDelay: 0,
    followMarginType: 0,
    followSymbolIds: 'all',
    zeroSlippageSwitch: false,
    ...patch,
  };
}

export function follow(r: Rig, leaderUserId: string, patch: Readonly<Record<string, unknown>> = {}, userId = FOLLOWER): void {
  const reply = call(r, 'followerConfigSet', { json: configBody(leaderUserId, patch), userId });
  if (reply.kind !== 'ok' || reply.data !== null) throw new Error(`follow failed: ${JSON.stringify(reply)}`);
}
