import { orderedParams } from '../../../src/core/ordered-params.js';
import { dec } from '../../../src/core/decimal.js';
import { ENDPOINTS } from '../../../src/protocol/endpoints.js';
import type { EndpointDef } from '../../../src/protocol/endpoints.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import type { RunningSim } from '../../sim/e2e/sim-harness.js';
import { BTC, MINUTE, startSim, value } from '../../sim/e2e/sim-harness.js';
import { ALTERNATIVES, corpusFile, LISTS, requiredKeys, shapeOf } from './corpus.js';

/**
 * The simulator's replies against the corpus shapes (key sets and JSON value types), over loopback. Each
 * key the client requires of a row must be one the corpus shows the real exchange sending: the simulator
 * emitting a field the exchange does not send cannot hide a client that requires it. And where the
 * simulator sends a key the corpus also shows, it sends one of the types the corpus shows for it.
 */

let s: RunningSim;
let trader: ExchangeClient;

beforeAll(async () => {
  s = await startSim({ warmupMs: MINUTE });
  trader = s.client('trader', { recvWindowMs: 60_000 });
  // An open order and a position, so that the order and position lists have rows.
  value(await trader.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'shape-rest', quantity: dec(1), price: dec(50_000) }));
  value(await trader.ordersV2.placeOrder({ symbol: BTC, side: 'BUY', positionSide: 'LONG', type: 'MARKET', newClientOrderId: 'shape-fill', quantity: dec(1) }));
});
afterAll(async () => {
  trader.stop();
  await s.stop();
});

/** The simulator route that answers each corpus file's endpoint, and the query it needs. */
const ROUTES: ReadonlyArray<readonly [string, EndpointDef, Record<string, string>]> = [
  ['exchange-info.json', ENDPOINTS.exchangeInfo, {}],
  ['funding-rate.json', ENDPOINTS.fundingRate, {}],
  ['history-funding-rate.json', ENDPOINTS.historyFundingRate, { symbol: BTC }],
  ['contract-ticker-24hr.json', ENDPOINTS.contractTicker24h, {}],
  ['trades.json', ENDPOINTS.trades, { symbol: BTC }],
  ['futures-balance.json', ENDPOINTS.futuresBalance, {}],
  ['positions.json', ENDPOINTS.positions, {}],
  ['open-orders-v1.json', ENDPOINTS.openOrdersV1, {}],
  ['open-orders-v2.json', ENDPOINTS.openOrdersV2, {}],
  ['user-trades-v2.json', ENDPOINTS.userTradesV2, { symbol: BTC }],
];

type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';

function jsonType(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

/** Per key, the JSON types it has in any row of the corpus file's list. */
function corpusTypes(file: string, rows: (reply: unknown) => unknown[] | undefined): Map<string, Set<JsonType>> {
  const types = new Map<string, Set<JsonType>>();
  for (const sample of corpusFile(file).samples) {
    for (const row of rows(sample.reply) ?? []) {
      for (const [key, v] of Object.entries(row as Record<string, unknown>)) {
        const seen = types.get(key) ?? new Set<JsonType>();
        seen.add(jsonType(v));
        types.set(key, seen);
      }
    }
  }
  return types;
}

describe('the simulator against the corpus shapes', () => {
  it.each(ROUTES.map(([file, endpoint, query]) => [file, endpoint, query] as const))('%s', async (file, endpoint, query) => {
    const raw = value(await trader.rest.callRaw({ endpoint, query: orderedParams(query) }));
    const lists = LISTS[file] ?? [];
    expect(lists.length).toBeGreaterThan(0);
    const problems: string[] = [];
    let simRows = 0;
    for (const list of lists) {
      const types = corpusTypes(file, list.rows);
      const shape = shapeOf(list.row);
      // What the client requires, the real exchange sends.
      for (const key of requiredKeys(list.row)) if (!types.has(key)) problems.push(`the client requires ${key}, which no corpus row carries`);
      for (const group of ALTERNATIVES) if (group.every((k) => k in shape) && !group.some((k) => types.has(k))) problems.push(`no corpus row carries any of ${group.join('/')}`);
      // v2 replies carry their rows in `data`; the corpus's accessor reads the same envelope.
      const rows = list.rows(raw.body) ?? [];
      simRows += rows.length;
      for (const row of rows) {
        for (const [key, v] of Object.entries(row as Record<string, unknown>)) {
          const seen = types.get(key);
          if (seen !== undefined && !seen.has(jsonType(v))) problems.push(`${key}: the simulator sends ${jsonType(v)}, the corpus shows ${[...seen].join('/')}`);
        }
        for (const key of requiredKeys(list.row)) if (!(key in (row as object))) problems.push(`the simulator's row lacks ${key}, which the client requires`);
      }
    }
    expect(simRows).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});
