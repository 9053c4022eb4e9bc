import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { dec } from '../../../src/core/decimal.js';
import type { Result } from '../../../src/core/result.js';
import type { ExchangeClient } from '../../../src/venue/exchange-client.js';
import { futuresBalanceSchema, positionSchema, balanceFlowSchema, balanceFlowV2Schema, futuresBalanceFlowSchema, subAccountSchema, accountLeverageSchema } from '../../../src/venue/parsers/account.js';
import { contractSymbolSchema, spotSymbolSchema } from '../../../src/venue/parsers/exchange-info.js';
import { followerPositionSchema, leaderSummarySchema } from '../../../src/venue/parsers/follower.js';
import { fundingHistorySchema, fundingRateSchema, ticker24hSchema, tradeSchema } from '../../../src/venue/parsers/market.js';
import { regularOrderV1Schema } from '../../../src/venue/parsers/order-v1.js';
import { orderV2Schema, userTradeV2Schema } from '../../../src/venue/parsers/order-v2.js';
import type { VenueError } from '../../../src/venue/venue-error.js';

/** The wire corpus (test/fixtures/wire, see its README): real and documented replies, one file per endpoint. */

export interface CorpusSample {
  readonly source: string;
  readonly reply: unknown;
}

export interface CorpusFile {
  readonly file: string;
  /** `METHOD /path` as the FixtureVenue routes it (or `WS …` for stream frames). */
  readonly endpoint: string;
  readonly samples: readonly CorpusSample[];
}

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/wire');

export function loadCorpus(): CorpusFile[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const parsed = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { endpoint: string; samples: CorpusSample[] };
      return { file, endpoint: parsed.endpoint, samples: parsed.samples };
    });
}

export function corpusFile(file: string): CorpusFile {
  const found = loadCorpus().find((c) => c.file === file);
  if (found === undefined) throw new Error(`no corpus file ${file}`);
  return found;
}

type Call = (client: ExchangeClient) => Promise<Result<unknown, VenueError>>;

/** The client call that reads each REST corpus file's endpoint. */
export const CALLS: Readonly<Record<string, Call>> = {
  'account-leverage.json': (c) => c.account.accountLeverage('ETH-SWAP-USDT'),
  'balance-flow-v1.json': (c) => c.account.accountBalanceFlow(),
  'balance-flow-v2.json': (c) => c.account.balanceFlowV2(),
  'contract-ticker-24hr.json': (c) => c.market.contractTicker24h(),
  'depth.json': (c) => c.market.depth({ symbol: 'BTC-SWAP-USDT' }),
  'exchange-info.json': (c) => c.market.exchangeInfo(),
  'follower-config.json': (c) => c.follower.getConfig('123456789'),
  'follower-current.json': (c) => c.follower.currentPositions(),
  'follower-history.json': (c) => c.follower.history(),
  'follower-leaders.json': (c) => c.follower.leaders(),
  'funding-rate.json': (c) => c.market.fundingRate(),
  'futures-balance-flow-v1.json': (c) => c.account.futuresBalanceFlow(),
  'futures-balance.json': (c) => c.account.futuresBalance(),
  'spot-account.json': (c) => c.wallet.spotAccount(),
  'history-orders-v2.json': (c) => c.ordersV2.historyOrders({}),
  'history-algo-orders-v2.json': (c) => c.algo.historyAlgoOrders({}),
  'history-funding-rate.json': (c) => c.market.historyFundingRate({ symbol: 'BTC-SWAP-USDT' }),
  'klines.json': (c) => c.market.klines({ symbol: 'BTC-SWAP-USDT', interval: '1m' }),
  'leverage-v1.json': (c) => c.account.leverage('ETH-SWAP-USDT', 3),
  'listen-key.json': (c) => c.userStream.createListenKey(),
  'margin-type-v1.json': (c) => c.account.marginType('ETH-SWAP-USDT', 'CROSS'),
  'mark-price.json': (c) => c.market.markPrice('BTC-SWAP-USDT'),
  'open-algo-orders-v2.json': (c) => c.algo.openAlgoOrders({ stopCategory: 'STOP' }),
  'open-orders-v1.json': (c) => c.ordersV1.openOrdersV1(),
  'open-orders-v2.json': (c) => c.ordersV2.openOrders(),
  'order-v1.json': (c) => c.ordersV1.orderV1Create({ symbol: 'ETH-SWAP-USDT', side: 'SELL_OPEN', type: 'LIMIT', quantity: dec(1), price: dec(7234), newClientOrderId: 'corpus-1' }),
  'order-v2.json': (c) => c.ordersV2.placeOrder({ symbol: 'BTC-SWAP-USDT', side: 'BUY', positionSide: 'LONG', type: 'LIMIT', newClientOrderId: 'corpus-2', quantity: dec(10), price: dec(19000) }),
  'positions.json': (c) => c.account.positions(),
  'server-time.json': (c) => c.market.serverTime(),
  'sub-account-list.json': (c) => c.account.subAccountList(),
  'trades.json': (c) => c.market.trades({ symbol: 'BTC-SWAP-USDT' }),
  'user-trades-v2.json': (c) => c.ordersV2.userTrades({ symbol: 'BTC-SWAP-USDT' }),
};

/** A list in a corpus reply and the schema of its rows. */
export interface ListOf {
  /** The rows of a reply (undefined when the reply has no such list, e.g. a one-object form). */
  readonly rows: (reply: unknown) => unknown[] | undefined;
  readonly row: z.ZodType;
}

const top = (reply: unknown): unknown[] | undefined => (Array.isArray(reply) ? (reply as unknown[]) : undefined);
const data = (reply: unknown): unknown[] | undefined => top(recordOf(reply)?.['data']);
const at = (key: string) => (reply: unknown): unknown[] | undefined => top(recordOf(reply)?.[key]);

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The row lists of the corpus files whose rows are objects. */
export const LISTS: Readonly<Record<string, readonly ListOf[]>> = {
  'account-leverage.json': [{ rows: top, row: accountLeverageSchema }],
  'balance-flow-v1.json': [{ rows: top, row: balanceFlowSchema }],
  'balance-flow-v2.json': [{ rows: data, row: balanceFlowV2Schema }],
  'contract-ticker-24hr.json': [{ rows: top, row: ticker24hSchema }],
  'exchange-info.json': [
    { rows: at('contracts'), row: contractSymbolSchema },
    { rows: at('symbols'), row: spotSymbolSchema },
  ],
  'follower-current.json': [{ rows: data, row: followerPositionSchema }],
  'follower-leaders.json': [{ rows: data, row: leaderSummarySchema }],
  'funding-rate.json': [{ rows: top, row: fundingRateSchema }],
  'futures-balance-flow-v1.json': [{ rows: top, row: futuresBalanceFlowSchema }],
  'futures-balance.json': [{ rows: top, row: futuresBalanceSchema }],
  'history-funding-rate.json': [{ rows: top, row: fundingHistorySchema }],
  'open-algo-orders-v2.json': [{ rows: data, row: orderV2Schema }],
  'history-orders-v2.json': [{ rows: data, row: orderV2Schema }],
  'history-algo-orders-v2.json': [{ rows: data, row: orderV2Schema }],
  'open-orders-v1.json': [{ rows: top, row: regularOrderV1Schema }],
  'open-orders-v2.json': [{ rows: data, row: orderV2Schema }],
  'positions.json': [{ rows: top, row: positionSchema }],
  'sub-account-list.json': [{ rows: top, row: subAccountSchema }],
  'trades.json': [{ rows: top, row: tradeSchema }],
  'user-trades-v2.json': [{ rows: data, row: userTradeV2Schema }],
};

/** Fields of which a row needs one, not each (`coin ?? asset`, API-NOTES §4.1, §5.1, §5.12; `executedQty ?? executeQty`). */
export const ALTERNATIVES: readonly (readonly string[])[] = [
  ['coin', 'asset'],
  ['symbolId', 'symbol'],
  ['executedQty', 'executeQty'],
  ['indexToken', 'index'],
];

interface ZodInternals {
  readonly _zod: { readonly def: { readonly type: string; readonly in?: unknown; readonly shape?: Record<string, z.ZodType> } };
}

/** The object shape under a row schema's transforms (a `z.object(...).transform(...)` is a pipe whose input is the object). */
export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  let current = schema as unknown as ZodInternals;
  for (let i = 0; i < 8; i++) {
    const def = current._zod.def;
    if (def.type === 'object' && def.shape !== undefined) return def.shape;
    if (def.type === 'pipe' && def.in !== undefined) current = def.in as ZodInternals;
    else break;
  }
  throw new Error('not an object row schema');
}

/** Keys a row must carry: a field whose schema refuses `undefined`, minus the one-of groups. */
export function requiredKeys(schema: z.ZodType): string[] {
  return Object.entries(shapeOf(schema))
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([key]) => key);
}

export function optionalKeys(schema: z.ZodType): string[] {
  return Object.entries(shapeOf(schema))
    .filter(([, field]) => field.safeParse(undefined).success)
    .map(([key]) => key);
}
