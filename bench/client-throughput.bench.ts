import { readFileSync } from 'node:fs';
import { toobit, version as ccxtVersion } from 'ccxt';
import { Decimal } from '../src/core/decimal.js';
import { systemTime } from '../src/core/system-time.js';
import { loadSimConfig } from '../src/app/sim-command.js';
import { SimulatedExchange } from '../src/sim/simulated-exchange.js';
import { ExchangeClient } from '../src/venue/exchange-client.js';
import type { BenchResult } from './bench-result.js';

const SYMBOL = 'BTC-SWAP-USDT';
const CCXT_SYMBOL = 'BTC/USDT:USDT';
/** Budgets far above what one process can send: the figures measure the clients, not the limits. */
const UNLIMITED = 1_000_000_000;
const CONCURRENCY = [1, 8] as const;

/** One unit of work; answers the HTTP requests it made, or throws / answers a failure text. */
type Operation = () => Promise<number | string>;

interface ClientOps {
  readonly ticker: Operation;
  readonly balance: Operation;
  readonly openOrders: Operation;
  readonly placeCancel: Operation;
}

type OpName = keyof ClientOps;

/** What each operation sends, the same endpoints for both clients (ccxt's unified methods). */
const OPERATIONS: Readonly<Record<OpName, string>> = {
  ticker: 'public GET /quote/v1/contract/ticker/24hr?symbol (ccxt fetchTicker)',
  balance: 'signed GET /api/v1/futures/balance (ccxt fetchBalance, defaultType swap)',
  openOrders: 'signed GET /api/v1/futures/openOrders?symbol (ccxt fetchOpenOrders)',
  placeCancel: 'signed v1 POST + DELETE /api/v1/futures/order, form bodies, a LIMIT far below the market (ccxt createOrder + cancelOrder)',
};

interface Tally {
  requests: number;
  failures: number;
  ms: number;
  firstFailure: string | undefined;
}

/**
 * Requests per second of our ExchangeClient and of ccxt's independent `toobit` class against the
 * same in-process simulator on loopback, for the same operations at the same concurrency (1, and
 * 8 concurrent callers). Both clients' own limiters are out of the way (ccxt enableRateLimit false,
 * our governor and the simulator given budgets no run can reach). Each figure runs in two halves,
 * ours / ccxt / ccxt / ours, so drift in the simulator's state weighs on both alike. The simulator
 * shares the process, so every figure includes the server's work as well.
 */
export async function benchClientThroughput(msPerCase = 2000): Promise<BenchResult> {
  const loaded = loadSimConfig({ port: '0' });
  if (!loaded.ok) throw loaded.error;
  const sim = await SimulatedExchange.start({
    config: loaded.value,
    time: systemTime,
    rateLimits: { weightLimit: UNLIMITED, ordersLimit: UNLIMITED },
  });
  const { baseUrl, accounts } = sim.address;
  const trader = accounts.find((a) => a.name === 'trader');
  if (trader === undefined) throw new Error('config/sim.yml has no trader key');
  const ours = new ExchangeClient({
    baseUrl,
    credentials: { apiKey: trader.apiKey, apiSecret: trader.secret },
    time: systemTime,
    rateBudget: { weightLimit: UNLIMITED, ordersLimit: UNLIMITED, share: 1 },
  });
  const ccxt = new toobit({ apiKey: trader.apiKey, secret: trader.secret, enableRateLimit: false, options: { defaultType: 'swap' } });
  ccxt.urls['api'] = { common: baseUrl, private: baseUrl };
  try {
    const synced = await ours.start();
    if (!synced.ok) throw synced.error;
    await ccxt.loadMarkets();
    const bid = await bestBid(ours);
    const price = bid.mul('0.8').toDecimalPlaces(1, Decimal.ROUND_DOWN);
    const clients: Readonly<Record<'ours' | 'ccxt', ClientOps>> = { ours: ourOps(ours, price), ccxt: ccxtOps(ccxt, price.toNumber()) };
    const figures: Record<string, number | string> = { ccxtVersion: installedCcxtVersion(), msPerCase };
    const failures: string[] = [];
    for (const op of Object.keys(OPERATIONS) as OpName[]) {
      // Warm-up (connections, JIT), not counted.
      await measure(clients.ours[op], 8, 300);
      await measure(clients.ccxt[op], 8, 300);
      for (const n of CONCURRENCY) {
        const half = msPerCase / 2;
        const a1 = await measure(clients.ours[op], n, half);
        const b1 = await measure(clients.ccxt[op], n, half);
        const b2 = await measure(clients.ccxt[op], n, half);
        const a2 = await measure(clients.ours[op], n, half);
        const a = perSecond(a1, a2);
        const b = perSecond(b1, b2);
        figures[`${op}.c${n}.oursReqPerSec`] = Math.round(a);
        figures[`${op}.c${n}.ccxtReqPerSec`] = Math.round(b);
        figures[`${op}.c${n}.oursOverCcxt`] = Number((a / b).toFixed(2));
        for (const [who, t] of [['ours', a1], ['ours', a2], ['ccxt', b1], ['ccxt', b2]] as const) {
          if (t.failures > 0) failures.push(`${op} c${n} ${who}: ${t.failures} failed (${t.firstFailure ?? ''})`);
        }
      }
    }
    figures['failures'] = failures.length === 0 ? 'none' : failures.join('; ');
    figures['operations'] = Object.entries(OPERATIONS)
      .map(([k, v]) => `${k}: ${v}`)
      .join(' | ');
    return {
      name: 'client requests/s: our ExchangeClient vs ccxt toobit, same simulator, same calls',
      figures,
      target: 'issue 8 (a): report both, and the ratio ours / ccxt',
    };
  } finally {
    ours.stop();
    await ccxt.close();
    await sim.stop();
  }
}

function ourOps(client: ExchangeClient, price: Decimal): ClientOps {
  let n = 0;
  const fail = (e: { message: string }): string => e.message;
  return {
    ticker: async () => {
      const r = await client.market.contractTicker24h({ symbol: SYMBOL });
      return r.ok ? 1 : fail(r.error);
    },
    balance: async () => {
      const r = await client.account.futuresBalance();
      return r.ok ? 1 : fail(r.error);
    },
    openOrders: async () => {
      const r = await client.ordersV1.openOrdersV1({ symbol: SYMBOL });
      return r.ok ? 1 : fail(r.error);
    },
    placeCancel: async () => {
      const placed = await client.ordersV1.orderV1Create({ symbol: SYMBOL, side: 'BUY_OPEN', type: 'LIMIT', quantity: new Decimal(1), price, newClientOrderId: `tp-${n++}` });
      if (!placed.ok) return fail(placed.error);
      const canceled = await client.ordersV1.orderV1Cancel({ orderId: placed.value.orderId, symbol: SYMBOL });
      return canceled.ok ? 2 : fail(canceled.error);
    },
  };
}

function ccxtOps(exchange: toobit, price: number): ClientOps {
  return {
    ticker: async () => {
      await exchange.fetchTicker(CCXT_SYMBOL);
      return 1;
    },
    balance: async () => {
      await exchange.fetchBalance();
      return 1;
    },
    openOrders: async () => {
      await exchange.fetchOpenOrders(CCXT_SYMBOL);
      return 1;
    },
    placeCancel: async () => {
      // ccxt's swap amount is in contracts.
      const order = await exchange.createOrder(CCXT_SYMBOL, 'limit', 'buy', 1, price);
      if (order.id === undefined) return 'createOrder answered no order id';
      await exchange.cancelOrder(order.id, CCXT_SYMBOL);
      return 2;
    },
  };
}

/** `workers` callers repeat the operation until `ms` have passed; counts the HTTP requests answered. */
async function measure(op: Operation, workers: number, ms: number): Promise<Tally> {
  const tally: Tally = { requests: 0, failures: 0, ms: 0, firstFailure: undefined };
  const started = performance.now();
  const deadline = started + ms;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      let outcome: number | string;
      try {
        outcome = await op();
      } catch (error: unknown) {
        outcome = error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
      }
      if (typeof outcome === 'number') tally.requests += outcome;
      else {
        tally.failures++;
        tally.firstFailure ??= outcome.slice(0, 200);
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, () => worker()));
  tally.ms = performance.now() - started;
  return tally;
}

function perSecond(...tallies: readonly Tally[]): number {
  const requests = tallies.reduce((s, t) => s + t.requests, 0);
  const ms = tallies.reduce((s, t) => s + t.ms, 0);
  return (requests * 1000) / ms;
}

/** The installed package's version (ccxt's exported `version` constant can lag it by a release). */
function installedCcxtVersion(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('ccxt')), 'utf8'));
    const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
    return typeof version === 'string' ? version : ccxtVersion;
  } catch {
    return ccxtVersion;
  }
}

async function bestBid(client: ExchangeClient): Promise<Decimal> {
  const books = await client.market.contractBookTicker(SYMBOL);
  const bid = books.ok ? books.value[0]?.bidPrice : undefined;
  if (bid === undefined) throw new Error(`no best bid for ${SYMBOL}: ${books.ok ? 'empty book' : books.error.message}`);
  return bid;
}
