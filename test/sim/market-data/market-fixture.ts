import type { z } from 'zod';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import { MarketDataService } from '../../../src/sim/market-data/market-data-service.js';
import type { MarketDataOptions } from '../../../src/sim/market-data/market-data-service.js';
import { marketDataRoutes } from '../../../src/sim/market-data/market-data-routes.js';
import type { FundingEvent, IndexPriceEvent, MarketChannel, MarketEvent, MarkPriceEvent, TradeEvent } from '../../../src/sim/market-stream/events.js';
import { MarketGenerator } from '../../../src/sim/market-stream/generator.js';
import type { SimInstrument } from '../../../src/sim/market-stream/instruments.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../../src/sim/market-stream/instruments.js';
import type { RequestParams, RouteContext, RouteReply, SimRoute } from '../../../src/sim/server/routing/types.js';
import type { EndpointName } from '../../../src/protocol/endpoints.js';
import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import { parseWire } from '../../../src/venue/wire/schema.js';

export const HOUR = 3_600_000;
export const MINUTE = 60_000;
/** 23:00 UTC: ten hours from here cross the 00:00 and 08:00 funding settlements. */
export const START = Date.UTC(2026, 0, 1, 23);
export const INSTRUMENTS: readonly SimInstrument[] = [BTC_SWAP_USDT, ETH_SWAP_USDT];

export interface FedMarket {
  readonly service: MarketDataService;
  readonly routes: readonly SimRoute[];
  readonly clock: VirtualClock;
  readonly end: number;
  readonly events: readonly MarketEvent[];
}

/** Sunday 2026-05-31 23:00 UTC: the next hour opens a new day, week (Monday) and month. */
export const MONTH_END = Date.UTC(2026, 4, 31, 23);

export interface FeedOptions {
  readonly hours?: number;
  readonly start?: number;
  readonly seed?: number;
  /** Channels to emit (all by default); the market evolves the same either way. */
  readonly channels?: readonly MarketChannel[];
  readonly service?: MarketDataOptions;
}

/** A seeded market of two symbols (sparse books, marks and indexes to stay fast) fed into a fresh service. */
export function feedMarket(feed: FeedOptions = {}): FedMarket {
  const { hours = 10, start = START, seed = 11, channels, service: options = {} } = feed;
  const generator = new MarketGenerator({
    seed,
    startTime: start,
    instruments: INSTRUMENTS,
    depthIntervalMs: 10_000,
    depthLevels: 12,
    markIntervalMs: 5_000,
    indexIntervalMs: 5_000,
    ...(channels === undefined ? {} : { channels }),
  });
  const end = start + hours * HOUR;
  const clock = new VirtualClock(start);
  const service = new MarketDataService(INSTRUMENTS, clock, options);
  const events = [...generator.eventsUntil(end)];
  for (const event of events) service.ingest(event);
  clock.advanceTo(end);
  return { service, routes: marketDataRoutes(service), clock, end, events };
}

export function tradesOf(events: readonly MarketEvent[], symbol: string): TradeEvent[] {
  return events.filter((e): e is TradeEvent => e.type === 'trade' && e.symbol === symbol);
}

export function pricesOf(events: readonly MarketEvent[], type: 'index' | 'mark', symbol: string): (IndexPriceEvent | MarkPriceEvent)[] {
  return events.filter((e): e is IndexPriceEvent | MarkPriceEvent => e.type === type && e.symbol === symbol);
}

export function fundingOf(events: readonly MarketEvent[], symbol: string): FundingEvent[] {
  return events.filter((e): e is FundingEvent => e.type === 'funding' && e.symbol === symbol);
}

/** A public request as the server hands it to a route: decoded query parameters, no caller. */
export function contextFor(query: Readonly<Record<string, string>>, now: number): RouteContext {
  const search = new URLSearchParams(query);
  const params: RequestParams = {
    get: (name) => search.get(name) ?? undefined,
    has: (name) => search.has(name),
    names: () => [...new Set(search.keys())],
  };
  return { now, params, json: undefined, pathParams: {}, caller: undefined, category: 'USDT' };
}

export function routeFor(routes: readonly SimRoute[], name: EndpointName): SimRoute {
  const route = routes.find((r) => r.endpoint === ENDPOINTS[name]);
  if (route === undefined) throw new Error(`no route for ${name}`);
  return route;
}

export function call(fed: FedMarket, name: EndpointName, query: Readonly<Record<string, string>> = {}, now = fed.end): RouteReply {
  const reply = routeFor(fed.routes, name).handle(contextFor(query, now));
  if (reply instanceof Promise) throw new Error('market-data routes answer synchronously');
  return reply;
}

/** The body the server would send for a v1 reply: `data` serialised, an error as `{code,msg}`. */
export function wireText(reply: RouteReply): string {
  switch (reply.kind) {
    case 'ok':
      return JSON.stringify(reply.data);
    case 'error':
      return JSON.stringify({ code: reply.code, msg: reply.msg });
    case 'raw':
      return reply.body;
  }
}

/** The reply's data after a JSON round trip (what a client receives); fails on an error reply. */
export function okData(reply: RouteReply): unknown {
  if (reply.kind !== 'ok') throw new Error(`expected ok, got ${wireText(reply)}`);
  return JSON.parse(wireText(reply)) as unknown;
}

export function errorOf(reply: RouteReply): { readonly code: number; readonly msg: string } {
  if (reply.kind !== 'error') throw new Error(`expected an error, got ${wireText(reply)}`);
  return { code: reply.code, msg: reply.msg };
}

/** Parses `value` with a client schema and returns the typed value; a parse failure fails the test. */
export function parsedBy<S extends z.ZodType>(schema: S, value: unknown, label = 'reply'): z.output<S> {
  const parsed = parseWire(schema, value, label);
  if (!parsed.ok) throw new Error(`${label}: ${parsed.error.message} at ${parsed.error.field ?? '?'}`);
  return parsed.value;
}
