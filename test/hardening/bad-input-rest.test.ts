import fc from 'fast-check';
import { isSafeNumber } from 'lossless-json';
import { dec } from '../../src/core/decimal.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import type { ExchangeFailure, ExchangeFailureKind } from '../../src/model/exchange-port.js';
import type { Result } from '../../src/core/result.js';
import { callParsed } from '../../src/venue/call-parsed.js';
import type { EndpointDef } from '../../src/protocol/endpoints.js';
import { ENDPOINTS } from '../../src/protocol/endpoints.js';
import type { ExchangeClient } from '../../src/venue/exchange-client.js';
import type { HttpReply, HttpRequest } from '../../src/venue/http-port.js';
import { VenueExchangePort } from '../../src/venue/port/venue-exchange-port.js';
import type { VenueError } from '../../src/venue/venue-error.js';
import { parseWire } from '../../src/venue/wire/schema.js';
import { parseWireJson } from '../../src/protocol/wire-json.js';
import { completes, pathOf, ScriptedHttp, scriptedClient, STATUSES, v2, venueErrorProblem } from './bad-input-http.js';
import {
  BALANCE_ROWS,
  DEPTH,
  EXCHANGE_INFO,
  FUNDING,
  KLINES,
  MARK_PRICE,
  ORDER_V1_ROW,
  ORDER_V2_ROW,
  PARSER_SAMPLES,
  PLAN_V2_ROW,
  POSITION_ROW,
  TRADE_V2_ROW,
  TRADES,
} from './bad-input-samples.js';
import type { ParserSample } from './bad-input-samples.js';
import { arbitraryValue, badText, DEEP_FIELD_TEXTS, idsAsNumbers, junkText, jsonCopy, MAX_MESSAGE_LENGTH, mutated, nonFinitePath, oversizedIdPath, oversizedText, runs, unsafeIntegerPath } from './bad-input-support.js';

/**
 * Issue 8, bad input at the REST boundary: the reply parsers (src/venue/parsers/*, wire/schema.ts), the JSON
 * reader (wire-json.ts), the transport's reading of status and body (rest-transport.ts, call-parsed.ts) and
 * the API methods over them never throw on any reply: they answer a value or a VenueError of a known kind,
 * with a bounded message, and accept every valid sample. Cases per property: the `numRuns` constants.
 */
const PARSER_MUTATION_RUNS = 10_000;
const PARSER_ANYTHING_RUNS = 12_000;
const PARSER_OVERSIZED_RUNS = 60;
const WIRE_JSON_RUNS = 2_000;
const TRANSPORT_RUNS = 5_000;
const TRANSPORT_OVERSIZED_RUNS = 15;
const API_RUNS = 2_500;
const PORT_RUNS = 1_500;

/** What every outcome of a parser must be: a value without NaN/Infinity, or a malformed-response error. */
function expectTyped(result: Result<unknown, VenueError>, where: string): void {
  if (result.ok) {
    const nonFinite = nonFinitePath(result.value);
    if (nonFinite !== undefined) throw new Error(`${where}: accepted a non-finite number at ${nonFinite}`);
    const unsafe = unsafeIntegerPath(result.value);
    if (unsafe !== undefined) throw new Error(`${where}: accepted an integer beyond 2^53 at ${unsafe}`);
    const longId = oversizedIdPath(result.value);
    if (longId !== undefined) throw new Error(`${where}: accepted an id of more than 20 digits at ${longId}`);
    return;
  }
  const problem = venueErrorProblem(result.error);
  if (problem !== undefined) throw new Error(`${where}: ${problem}`);
}

function parse(s: ParserSample, value: unknown): Result<unknown, VenueError> {
  return parseWire(s.schema, value, s.name);
}

/** Samples by name: the properties generate names (a counterexample then prints short). */
const SAMPLE_BY_NAME = new Map(PARSER_SAMPLES.map((s) => [s.name, s]));
function sample(name: string): ParserSample {
  const found = SAMPLE_BY_NAME.get(name);
  if (found === undefined) throw new Error(`no sample ${name}`);
  return found;
}

describe('REST parsers: the valid samples', () => {
  it.each(PARSER_SAMPLES.map((s) => [s.name, s] as const))('%s is accepted, also with its 64-bit ids as JSON numbers', (_name, s) => {
    const result = parse(s, jsonCopy(s.sample));
    if (!result.ok) throw result.error;
    const numeric = parse(s, parseWireJson(idsAsNumbers(JSON.stringify(s.sample))));
    expect(numeric).toEqual(result);
  });
});

describe('REST parsers: bad values never throw', () => {
  it(`mutated samples (wrong types, null, missing, huge, deep, NaN-like, ids as numbers): ${PARSER_MUTATION_RUNS} cases`, () => {
    const arb = fc.oneof(...PARSER_SAMPLES.map((s) => fc.tuple(fc.constant(s.name), mutated(s.sample))));
    fc.assert(
      fc.property(arb, ([name, value]) => expectTyped(parse(sample(name), value), name)),
      runs(PARSER_MUTATION_RUNS),
    );
  });

  it(`oversized values (100 kB to 1 MB strings, 100,000-element arrays, 10,000 keys, 1,000 levels deep): ${PARSER_OVERSIZED_RUNS} cases`, () => {
    const arb = fc.oneof(...PARSER_SAMPLES.map((s) => fc.tuple(fc.constant(s.name), mutated(s.sample, true))));
    fc.assert(
      fc.property(arb, ([name, value]) => expectTyped(parse(sample(name), value), name)),
      runs(PARSER_OVERSIZED_RUNS),
    );
  });

  it('a record key of 10,000 characters holding a bad value: the error names a cut key', () => {
    const result = parse(sample('index prices'), { index: { ['k'.repeat(10_000)]: 'NaN' }, edp: {} });
    expectTyped(result, 'index prices');
    expect(result.ok).toBe(false);
  });

  it(`arbitrary values (fc.jsonValue, fc.anything): ${PARSER_ANYTHING_RUNS} cases`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...PARSER_SAMPLES.map((s) => s.name)), arbitraryValue(), (name, value) => expectTyped(parse(sample(name), value), name)),
      runs(PARSER_ANYTHING_RUNS),
    );
  });
});

/** What the lossless reader makes of a parsed value: a number a double does not hold exactly (2^53, 1e+21) keeps its text. */
function unsafeIntegersAsText(value: unknown): unknown {
  if (typeof value === 'number') return isSafeNumber(JSON.stringify(value)) ? value : JSON.stringify(value);
  if (Array.isArray(value)) return value.map(unsafeIntegersAsText);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unsafeIntegersAsText(v)]));
  return value;
}

describe('wire JSON', () => {
  it(`valid JSON reads as JSON.parse does, except numbers a double does not hold exactly (64-bit ids), which keep their text: ${WIRE_JSON_RUNS} cases`, () => {
    const bigId = fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n }).map((n) => n.toString());
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.array(bigId, { minLength: 1, maxLength: 3 }), (value, ids) => {
        const text = JSON.stringify({ value, ids: ids.map((id) => `@${id}@`) }).replace(/"@(\d+)@"/g, '$1');
        expect(parseWireJson(text)).toEqual({ value: unsafeIntegersAsText(JSON.parse(JSON.stringify(value))), ids });
      }),
      runs(WIRE_JSON_RUNS),
    );
  });

  it(`text that is not JSON is refused with an Error (the callers catch it), never another throw: ${WIRE_JSON_RUNS} cases`, () => {
    fc.assert(
      fc.property(junkText(), (text) => {
        try {
          parseWireJson(text);
        } catch (error: unknown) {
          expect(error).toBeInstanceOf(Error);
        }
      }),
      runs(WIRE_JSON_RUNS),
    );
  });
});

/** The endpoint a sample is sent on: v1 bare JSON, or v2 with the `{code,msg,data}` wrapper around it. */
const V1_ENDPOINT: EndpointDef = ENDPOINTS.orderV1Get;
const V2_ENDPOINT: EndpointDef = ENDPOINTS.orderV2Get;

function endpointOf(wire: EndpointDef['wire']): EndpointDef {
  return wire === 'v2' ? V2_ENDPOINT : V1_ENDPOINT;
}

function bodyOf(s: ParserSample, endpoint: EndpointDef): unknown {
  return endpoint.wire === 'v2' ? v2(s.sample) : s.sample;
}

/** Every cut point of every sample's reply text, v1 and v2. */
const TRUNCATIONS = PARSER_SAMPLES.reduce((sum, s) => sum + JSON.stringify(bodyOf(s, V1_ENDPOINT)).length + JSON.stringify(bodyOf(s, V2_ENDPOINT)).length, 0);

async function transportCall(s: ParserSample, endpoint: EndpointDef, reply: HttpReply): Promise<Result<unknown, VenueError>> {
  const clock = new VirtualClock();
  const client = scriptedClient(new ScriptedHttp(() => reply), clock);
  return completes(clock, () => callParsed(client.rest, { endpoint }, s.schema));
}

/** Reply headers, garbage included: the transport reads traceId and the rate-limit headers. */
const headers = fc.oneof(
  fc.constant({}),
  fc.record(
    {
      traceid: fc.string({ maxLength: 40 }),
      'x-api-limit': fc.constantFrom('3000', '-1', '0', 'abc', '9'.repeat(30), ''),
      'x-api-limit-status': fc.constantFrom('2999', '-5', 'x', '9'.repeat(30)),
      'x-api-limit-reset-timestamp': fc.constantFrom('1757430201279', '0', '-1', 'soon', '9'.repeat(30)),
    },
    { requiredKeys: [] },
  ),
);

describe('REST transport: any status, headers and body', () => {
  it.each(PARSER_SAMPLES.flatMap((s) => [V1_ENDPOINT, V2_ENDPOINT].map((e) => [`${s.name} (${e.wire})`, s, e] as const)))(
    '%s: a 200 with the valid body is accepted',
    async (_name, s, endpoint) => {
      const result = await transportCall(s, endpoint, { status: 200, headers: {}, body: JSON.stringify(bodyOf(s, endpoint)) });
      if (!result.ok) throw result.error;
    },
  );

  it(`every truncation of every valid reply (v1 and v2-wrapped) is a typed error, never a throw: ${TRUNCATIONS} cases`, async () => {
    let cases = 0;
    for (const s of PARSER_SAMPLES) {
      for (const endpoint of [V1_ENDPOINT, V2_ENDPOINT]) {
        const text = JSON.stringify(bodyOf(s, endpoint));
        for (let cut = 0; cut < text.length; cut++) {
          const result = await transportCall(s, endpoint, { status: 200, headers: {}, body: text.slice(0, cut) });
          expectTyped(result, `${s.name} cut at ${cut}`);
          cases++;
        }
      }
    }
    expect(cases).toBe(TRUNCATIONS);
    // 31,540 sequential calls: over jest's default 20 s on a loaded machine.
  }, 120_000);

  it(`mutated, damaged and junk replies with any status: ${TRANSPORT_RUNS} cases`, async () => {
    const arb = fc.oneof(
      ...PARSER_SAMPLES.flatMap((s) =>
        [V1_ENDPOINT, V2_ENDPOINT].map((endpoint) => fc.tuple(fc.constant(s.name), fc.constant(endpoint.wire), badText(bodyOf(s, endpoint)), fc.constantFrom(...STATUSES), headers)),
      ),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ([name, wire, body, status, hdrs]) => {
        const result = await transportCall(sample(name), endpointOf(wire), { status, headers: hdrs, body });
        expectTyped(result, `${name} ${status}`);
        // A reply that is not JSON is never read as a success.
        if (isJunk(body)) expect(result.ok).toBe(false);
      }),
      runs(TRANSPORT_RUNS),
    );
  }, 120_000);
});

describe('REST transport: oversized replies', () => {
  it(`fields nested 10,000 and 100,000 deep (code, msg, data), v1 and v2: ${DEEP_FIELD_TEXTS.length * 2} cases`, async () => {
    const s = sample('order v2');
    for (const body of DEEP_FIELD_TEXTS) {
      for (const endpoint of [V1_ENDPOINT, V2_ENDPOINT]) expectTyped(await transportCall(s, endpoint, { status: 200, headers: {}, body }), body.slice(0, 20));
    }
  });

  it(`100 kB to 2 MB bodies (huge values, deep nesting, long arrays) with any status: ${TRANSPORT_OVERSIZED_RUNS} cases`, async () => {
    const arb = fc.oneof(
      ...PARSER_SAMPLES.flatMap((s) => [V1_ENDPOINT, V2_ENDPOINT].map((endpoint) => fc.tuple(fc.constant(s.name), fc.constant(endpoint.wire), oversizedText(bodyOf(s, endpoint)), fc.constantFrom(...STATUSES)))),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ([name, wire, body, status]) => {
        const result = await transportCall(sample(name), endpointOf(wire), { status, headers: {}, body });
        expectTyped(result, `${name} ${status}`);
        if (isJunk(body)) expect(result.ok).toBe(false);
      }),
      runs(TRANSPORT_OVERSIZED_RUNS),
    );
  }, 120_000);
});

function isJunk(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/** A typed API method and the valid reply body of its route. */
interface ApiCase {
  readonly name: string;
  readonly body: unknown;
  readonly call: (client: ExchangeClient) => Promise<Result<unknown, VenueError>>;
}

const BTC = 'BTC-SWAP-USDT';
const API_CASES: readonly ApiCase[] = [
  { name: 'market.serverTime', body: { serverTime: 1790112378318 }, call: (c) => c.market.serverTime() },
  { name: 'market.exchangeInfo', body: EXCHANGE_INFO, call: (c) => c.market.exchangeInfo() },
  { name: 'market.depth', body: DEPTH, call: (c) => c.market.depth({ symbol: BTC }) },
  { name: 'market.trades', body: TRADES, call: (c) => c.market.trades({ symbol: BTC }) },
  { name: 'market.klines', body: KLINES, call: (c) => c.market.klines({ symbol: BTC, interval: '1M' }) },
  { name: 'market.markPrice', body: MARK_PRICE, call: (c) => c.market.markPrice(BTC) },
  { name: 'market.fundingRate', body: [FUNDING], call: (c) => c.market.fundingRate(BTC) },
  { name: 'account.futuresBalance', body: BALANCE_ROWS, call: (c) => c.account.futuresBalance() },
  { name: 'account.positions', body: [POSITION_ROW], call: (c) => c.account.positions() },
  { name: 'account.leverage', body: { code: 200, leverage: '3', symbolId: BTC }, call: (c) => c.account.leverage(BTC, 3) },
  {
    name: 'ordersV1.orderV1Create',
    body: ORDER_V1_ROW,
    call: (c) => c.ordersV1.orderV1Create({ symbol: 'ETH-SWAP-USDT', side: 'SELL_OPEN', type: 'LIMIT', quantity: dec(1), price: dec(7234), newClientOrderId: 'c1' }),
  },
  {
    name: 'ordersV2.placeOrder',
    body: v2(ORDER_V2_ROW),
    call: (c) => c.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'c1', quantity: dec(10), price: dec(19000) }),
  },
  {
    name: 'ordersV2.placeBatch',
    body: v2([{ code: 200, order: ORDER_V2_ROW }, { code: -1131, msg: 'Balance insufficient' }]),
    call: (c) =>
      c.ordersV2.placeBatch([
        { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'c1', quantity: dec(10), price: dec(19000) },
        { symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'c2', quantity: dec(10), price: dec(19000) },
      ]),
  },
  { name: 'ordersV2.getOrder', body: v2(ORDER_V2_ROW), call: (c) => c.ordersV2.getOrder({ origClientOrderId: 'c1' }) },
  { name: 'ordersV2.cancelAll', body: v2(null), call: (c) => c.ordersV2.cancelAll([BTC]) },
  { name: 'ordersV2.openOrders', body: v2([ORDER_V2_ROW]), call: (c) => c.ordersV2.openOrders({}) },
  { name: 'ordersV2.userTrades', body: v2([TRADE_V2_ROW]), call: (c) => c.ordersV2.userTrades({ symbol: BTC }) },
  { name: 'algo.openAlgoOrders', body: v2([PLAN_V2_ROW]), call: (c) => c.algo.openAlgoOrders({ stopCategory: 'STOP' }) },
  { name: 'userStream.createListenKey', body: { listenKey: 'zUeuthxEYbqupygpYQKPTgDemAQWXJdrpzVhmVOSKSDUzMWzIAVgPgYbDLuxBpNu' }, call: (c) => c.userStream.createListenKey() },
];

async function apiCall(api: ApiCase, status: number, body: string): Promise<{ result: Result<unknown, VenueError>; paths: string[] }> {
  const http = new ScriptedHttp((request) => (pathOf(request) === '/api/v1/time' ? { status: 200, headers: {}, body: '{"serverTime":1790112378318}' } : { status, headers: {}, body }));
  const clock = new VirtualClock();
  const client = scriptedClient(http, clock);
  const result = await completes(clock, () => api.call(client));
  return { result, paths: http.requests.map(pathOf) };
}

describe('REST API methods over bad replies', () => {
  it.each(API_CASES.map((a) => [a.name, a] as const))('%s accepts its valid reply', async (_name, api) => {
    const { result } = await apiCall(api, 200, JSON.stringify(api.body));
    if (!result.ok) throw result.error;
  });

  it(`never throw, answer a value or a VenueError: ${API_RUNS} cases`, async () => {
    const arb = fc.oneof(...API_CASES.map((api, i) => fc.tuple(fc.constant(i), badText(api.body), fc.constantFrom(...STATUSES))));
    await fc.assert(
      fc.asyncProperty(arb, async ([i, body, status]) => {
        const api = API_CASES[i];
        if (api === undefined) throw new Error(`no API case ${i}`);
        const { result } = await apiCall(api, status, body);
        expectTyped(result, api.name);
        if (!result.ok) expect(result.error.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
      }),
      runs(API_RUNS),
    );
  }, 120_000);
});

/** The routes the kernel's ExchangePort uses, with valid replies. */
const PORT_ROUTES: Readonly<Record<string, unknown>> = {
  'GET /api/v1/exchangeInfo': EXCHANGE_INFO,
  'POST /api/v2/futures/order': v2(ORDER_V2_ROW),
  'GET /api/v2/futures/order': v2(ORDER_V2_ROW),
  'DELETE /api/v2/futures/order': v2({ ...ORDER_V2_ROW, status: 'CANCELED' }),
  'POST /api/v2/futures/batch-orders': v2([{ code: 200, order: ORDER_V2_ROW }, { code: 200, order: { ...ORDER_V2_ROW, clientOrderId: 'c2' } }]),
  'DELETE /api/v2/futures/batch-orders': v2(null),
  'GET /api/v2/futures/open-orders': v2([ORDER_V2_ROW]),
  'GET /api/v2/futures/open-algo-orders': v2([PLAN_V2_ROW]),
  'GET /api/v2/futures/history-algo-orders': v2([{ ...PLAN_V2_ROW, status: 'ORDER_FILLED', executedOrderId: ORDER_V2_ROW.orderId }]),
  'POST /api/v2/futures/algo-order': v2(PLAN_V2_ROW),
  'GET /api/v2/futures/algo-order': v2(PLAN_V2_ROW),
  'GET /api/v1/futures/positions': [POSITION_ROW],
  'GET /api/v1/futures/balance': BALANCE_ROWS,
  'GET /api/v2/futures/user-trades': v2([TRADE_V2_ROW]),
  'GET /api/v1/time': { serverTime: 1790112378318 },
};

const LIMIT_BUY = { type: 'place-order', clientOrderId: 'c1', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'LIMIT', price: dec(19000), quantity: dec(10), timeInForce: 'GTC' } as const;

/** ExchangePort operations and the routes they call; `write` ones may have taken effect whatever their reply. */
interface PortCase {
  readonly name: string;
  readonly write: boolean;
  readonly routes: readonly string[];
  readonly call: (port: VenueExchangePort) => Promise<Result<unknown, ExchangeFailure>>;
}

const PORT_CASES: readonly PortCase[] = [
  { name: 'loadInstruments', write: false, routes: ['GET /api/v1/exchangeInfo'], call: (p) => p.loadInstruments() },
  { name: 'placeOrder', write: true, routes: ['POST /api/v2/futures/order'], call: (p) => p.placeOrder(LIMIT_BUY) },
  { name: 'placeOrders', write: true, routes: ['POST /api/v2/futures/batch-orders'], call: (p) => p.placeOrders([LIMIT_BUY, { ...LIMIT_BUY, clientOrderId: 'c2' }]) },
  { name: 'cancelOrder', write: true, routes: ['DELETE /api/v2/futures/order'], call: (p) => p.cancelOrder({ type: 'cancel-order', symbol: BTC, clientOrderId: 'c1' }) },
  { name: 'cancelAll', write: true, routes: ['DELETE /api/v2/futures/batch-orders'], call: (p) => p.cancelAll({ type: 'cancel-all', symbol: BTC }) },
  {
    name: 'placeAlgo',
    write: true,
    routes: ['POST /api/v2/futures/algo-order'],
    call: (p) =>
      p.placeAlgo({ type: 'place-algo', clientOrderId: 'p1', symbol: BTC, side: 'BUY', positionSide: 'LONG', orderType: 'MARKET', triggerPrice: dec(95000), triggerBy: 'CONTRACT_PRICE', quantity: dec(2), timeInForce: 'GTC' }),
  },
  { name: 'queryOrder', write: false, routes: ['GET /api/v2/futures/order'], call: (p) => p.queryOrder(BTC, 'c1') },
  { name: 'queryAlgo', write: false, routes: ['GET /api/v2/futures/algo-order'], call: (p) => p.queryAlgo(BTC, 'p1') },
  {
    name: 'fetchAccount',
    write: false,
    routes: ['GET /api/v2/futures/open-orders', 'GET /api/v2/futures/open-algo-orders', 'GET /api/v1/futures/positions', 'GET /api/v1/futures/balance'],
    call: (p) => p.fetchAccount([BTC]),
  },
  { name: 'fetchFills', write: false, routes: ['GET /api/v2/futures/user-trades'], call: (p) => p.fetchFills(BTC, 0) },
  { name: 'fetchAlgoHistory', write: false, routes: ['GET /api/v2/futures/history-algo-orders'], call: (p) => p.fetchAlgoHistory(BTC, 'plan') },
  { name: 'queryOrderById', write: false, routes: ['GET /api/v2/futures/order'], call: (p) => p.queryOrderById(BTC, ORDER_V2_ROW.orderId) },
];

const FAILURE_KINDS: readonly ExchangeFailureKind[] = ['rejected', 'unknown', 'not-found', 'throttled', 'invalid'];

function routeOf(request: HttpRequest): string {
  return `${request.method} ${pathOf(request)}`;
}

describe('the kernel’s ExchangePort over bad replies', () => {
  it.each(PORT_CASES.map((c) => [c.name, c] as const))('%s succeeds on valid replies', async (_name, c) => {
    const http = new ScriptedHttp((request) => ({ status: 200, headers: {}, body: JSON.stringify(PORT_ROUTES[routeOf(request)] ?? null) }));
    const result = await c.call(new VenueExchangePort({ client: scriptedClient(http) }));
    if (!result.ok) throw new Error(JSON.stringify(result.error));
  });

  it('a batch leg failing with a 10,000-character message: the leg’s failure message is cut', async () => {
    const legs = v2([{ code: -1131, msg: 'x'.repeat(10_000) }, { code: 200, order: ORDER_V2_ROW }]);
    const http = new ScriptedHttp(() => ({ status: 200, headers: {}, body: JSON.stringify(legs) }));
    const clock = new VirtualClock();
    const port = new VenueExchangePort({ client: scriptedClient(http, clock) });
    const result = await completes(clock, () => port.placeOrders([LIMIT_BUY, { ...LIMIT_BUY, clientOrderId: 'c2' }]));
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    const [first] = result.value;
    expect(first?.ok).toBe(false);
    if (first !== undefined && !first.ok) expect(first.error.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
  });

  it(`one route answers garbage, the others valid replies: a value or an ExchangeFailure, and an unreadable write reply is "unknown": ${PORT_RUNS} cases`, async () => {
    const arb = fc.oneof(
      ...PORT_CASES.flatMap((c, i) => c.routes.map((route) => fc.tuple(fc.constant(i), fc.constant(route), badText(PORT_ROUTES[route]), fc.constantFrom(...STATUSES)))),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ([i, badRoute, body, status]) => {
        const c = PORT_CASES[i];
        if (c === undefined) throw new Error(`no port case ${i}`);
        let hit = false;
        const http = new ScriptedHttp((request) => {
          const route = routeOf(request);
          if (route !== badRoute) return { status: 200, headers: {}, body: JSON.stringify(PORT_ROUTES[route] ?? null) };
          hit = true;
          return { status, headers: {}, body };
        });
        const clock = new VirtualClock();
        const port = new VenueExchangePort({ client: scriptedClient(http, clock) });
        const result = await completes(clock, () => c.call(port));
        if (result.ok) {
          const nonFinite = nonFinitePath(result.value);
          if (nonFinite !== undefined) throw new Error(`${c.name}: accepted a non-finite number at ${nonFinite}`);
          return;
        }
        const failure = result.error;
        expect(FAILURE_KINDS).toContain(failure.kind);
        expect(typeof failure.code).toBe('string');
        expect(typeof failure.retryable).toBe('boolean');
        expect(failure.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
        // A write whose 200 reply cannot be read may have happened: never a definite failure.
        if (hit && c.write && status === 200 && isJunk(body)) expect(failure.kind).toBe('unknown');
      }),
      runs(PORT_RUNS),
    );
  }, 120_000);
});
