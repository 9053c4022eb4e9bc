import { Decimal } from '../src/core/decimal.js';
import { systemTime } from '../src/core/system-time.js';
import type { SimConfig } from '../src/sim/config/sim-config.js';
import { simConfigSchema } from '../src/sim/config/sim-config.js';
import { SimulatedExchange } from '../src/sim/simulated-exchange.js';
import { ExchangeClient } from '../src/venue/exchange-client.js';
import { signText } from '../src/protocol/signer.js';
import type { BenchResult } from './bench-result.js';

const SYMBOL = 'BTC-SWAP-USDT';
const RECV_WINDOW = '5000';
/**
 * The exchange's budgets are per key (3000 weight a minute) and per user (60 orders per 2 s), and
 * SimulatedExchange cannot raise them; so the load is spread over this many users, one key each,
 * which leaves room for about 5000 place/cancel pairs a second before any 429 (`failed` counts them).
 */
const USERS = 200;
const WORKERS = 16;

interface BenchKey {
  readonly apiKey: string;
  readonly secret: string;
}

/**
 * Requests per second through the whole simulator (HTTP parsing, authentication, limits, engine,
 * envelopes) on loopback: `iterations` v2 LIMIT orders placed far below the market and cancelled,
 * by raw signed fetch from 16 concurrent workers. The project client is not used for the load: its
 * governor holds orders to 48 per 2 s per process, which would measure the governor instead.
 */
export async function benchServerLoop(iterations = 2000): Promise<BenchResult> {
  const sim = await SimulatedExchange.start({ config: benchConfig(), time: systemTime });
  try {
    const { baseUrl, accounts } = sim.address;
    const keys: BenchKey[] = accounts.map((a) => ({ apiKey: a.apiKey, secret: a.secret }));
    const price = await farBelowMarket(baseUrl);
    let next = 0;
    let failed = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < iterations; i = next++) {
        const key = keys[i % keys.length];
        if (key === undefined) throw new Error('no bench key');
        const ok = await placeAndCancel(baseUrl, key, price, `bench-${i}`);
        if (!ok) failed++;
      }
    };
    const started = process.hrtime.bigint();
    await Promise.all(Array.from({ length: WORKERS }, () => worker()));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const requests = iterations * 2;
    return {
      name: 'sim server: v2 place/cancel over loopback HTTP',
      figures: {
        iterations,
        requests,
        workers: WORKERS,
        failed,
        seconds: Number(seconds.toFixed(3)),
        requestsPerSecond: Math.round(requests / seconds),
      },
    };
  } finally {
    await sim.stop();
  }
}

/** The default market, one symbol, USERS funded users with one trading key each. */
function benchConfig(): SimConfig {
  const users = Array.from({ length: USERS }, (_, n) => ({
    userId: String(900_000_000 + n),
    email: `bench${n}@sim.stratd.local`,
    balances: { FUTURES: { USDT: '10000000' } },
  }));
  const keys = users.map((u, n) => ({
    name: `bench-${n}`,
    apiKey: `simBenchKey${String(n).padStart(8, '0')}00000000000000`,
    secret: `simBenchSecret${String(n).padStart(8, '0')}00000000000`,
    userId: u.userId,
  }));
  return simConfigSchema.parse({
    seed: 7,
    port: 0,
    market: { symbols: [SYMBOL] },
    users,
    keys,
    catalog: { token: 'benchCatalogToken0000000' },
    admin: { token: 'benchAdminToken00000000' },
  });
}

/** Four fifths of the best bid, on the 0.1 tick: rests on the book, never fills. */
async function farBelowMarket(baseUrl: string): Promise<string> {
  const books = await new ExchangeClient({ baseUrl, time: systemTime }).market.contractBookTicker(SYMBOL);
  const bid = books.ok ? books.value[0]?.bidPrice : undefined;
  if (bid === undefined) throw new Error(`no best bid for ${SYMBOL}: ${books.ok ? 'empty book' : books.error.message}`);
  return bid.mul('0.8').toDecimalPlaces(1, Decimal.ROUND_DOWN).toFixed();
}

/** One v2 LIMIT order and its cancel; false when either answer is not a success. */
async function placeAndCancel(baseUrl: string, key: BenchKey, price: string, clientOrderId: string): Promise<boolean> {
  const body = JSON.stringify({ symbol: SYMBOL, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price, quantity: '1', newClientOrderId: clientOrderId });
  const placed = await signedCall(baseUrl, key, 'POST', '/api/v2/futures/order', '', body);
  const data = isRecord(placed) ? placed['data'] : undefined;
  const orderId = isRecord(data) && typeof data['orderId'] === 'string' ? data['orderId'] : undefined;
  if (orderId === undefined) return false;
  const canceled = await signedCall(baseUrl, key, 'DELETE', '/api/v2/futures/order', `orderId=${orderId}`, undefined);
  return isRecord(canceled) && canceled['code'] === 200;
}

/** A signed v2 call: HMAC over query + body (API-NOTES §1.2); answers the parsed reply. */
async function signedCall(baseUrl: string, key: BenchKey, method: 'POST' | 'DELETE', path: string, params: string, body: string | undefined): Promise<unknown> {
  const query = `${params === '' ? '' : `${params}&`}recvWindow=${RECV_WINDOW}&timestamp=${systemTime.clock.now()}`;
  const signature = signText(key.secret, query + (body ?? ''));
  const reply = await fetch(`${baseUrl}${path}?${query}&signature=${signature}`, {
    method,
    headers: { 'x-bb-apikey': key.apiKey, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body }),
  });
  return (await reply.json()) as unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
