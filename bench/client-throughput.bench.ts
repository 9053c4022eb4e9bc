import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { toobit, version as ccxtVersion } from 'ccxt';
import { Decimal } from '../src/core/decimal.js';
import { systemTime } from '../src/core/system-time.js';
import { loadSimConfig } from '../src/app/commands/sim.js';
import { SimulatedExchange } from '../src/sim/simulated-exchange.js';
import { ExchangeClient } from '../src/venue/exchange-client.js';
import { createGotHttp } from '../src/venue/got-http.js';
import type { HttpPort } from '../src/venue/http-port.js';
import type { HttpStack } from '../src/venue/http-stack.js';
import type { BenchResult } from './bench-result.js';
import { CannedReplyServer, RecordingProxy } from './canned-reply-server.js';

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
  /** CPU time of this process (user + system, µs) over the run. */
  cpuUs: number;
  firstFailure: string | undefined;
}

/** Resting orders placed before recording, so that open orders is a list with rows in it. */
const RESTING_ORDERS = 3;

/**
 * Requests per second of our ExchangeClient and of ccxt's independent `toobit` class for the same
 * operations at the same concurrency (1, and 8 concurrent callers), twice:
 *
 * - against a canned-reply server: replies recorded from the simulator, served as fixed bytes by
 *   another process, so the figures are the clients' own costs (target ≥ 2× ccxt in every case); beside
 *   them a bare `http.request` + `JSON.parse` of the ticker over a kept-alive socket (the floor), and
 *   our client over got (`venue.http: got`), and over undici (`exchange.http: undici`) interleaved
 *   with the default transport, for the undici / socket comparison;
 * - against the in-process simulator (target ≥ 1×), where the figures include the server's work.
 *
 * Both clients' own limiters are out of the way (ccxt enableRateLimit false, our governor and the
 * simulator given budgets no run can reach). Each figure runs in two halves, ours / ccxt / ccxt / ours,
 * so drift in the machine's load and the simulator's state weighs on both alike.
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
  const keys = { apiKey: trader.apiKey, secret: trader.secret };
  let simStopped: Promise<void> | undefined;
  const stopSim = (): Promise<void> => (simStopped ??= sim.stop());
  const stops: Array<() => Promise<void> | void> = [stopSim];
  try {
    const ours = await ourClient(baseUrl, keys, stops);
    const ccxt = await ccxtClient(baseUrl, keys, stops);
    const bid = await bestBid(ours);
    const price = bid.mul('0.8').toDecimalPlaces(1, Decimal.ROUND_DOWN);
    for (let i = 0; i < RESTING_ORDERS; i++) {
      const placed = await ours.ordersV1.orderV1Create({ symbol: SYMBOL, side: 'BUY_OPEN', type: 'LIMIT', quantity: new Decimal(1), price, newClientOrderId: `rest-${i}` });
      if (!placed.ok) throw placed.error;
    }

    // Record each operation's replies once, through a proxy in front of the simulator; then serve them canned.
    const proxy = await RecordingProxy.start(baseUrl);
    stops.push(() => proxy.stop());
    const recording = { ours: ourOps(await ourClient(proxy.url, keys, stops), price), ccxt: ccxtOps(await ccxtClient(proxy.url, keys, stops), price.toNumber()) };
    for (const op of OP_NAMES) {
      for (const who of ['ours', 'ccxt'] as const) {
        const outcome = await recording[who][op]();
        if (typeof outcome === 'string') throw new Error(`recording ${op} (${who}) failed: ${outcome}`);
      }
    }
    const canned = await CannedReplyServer.start(proxy.replies());
    stops.push(() => canned.stop());
    const cannedOurs = ourOps(await ourClient(canned.url, keys, stops), price);
    const cannedGot = ourOps(await ourClient(canned.url, keys, stops, createGotHttp()), price);
    const cannedUndici = ourOps(await ourClient(canned.url, keys, stops, 'undici'), price);
    const cannedCcxt = ccxtOps(await ccxtClient(canned.url, keys, stops), price.toNumber());
    const bare = bareTicker(canned.url, stops);
    const raw = rawSocketTicker(canned.url, stops);

    const figures: Record<string, number | string> = { ccxtVersion: installedCcxtVersion(), msPerCase, cannedRoutes: [...proxy.replies().keys()].join(' | ') };
    const failures: string[] = [];
    const simRatios = await compareAll('sim', { ours: ourOps(ours, price), ccxt: ccxtOps(ccxt, price.toNumber()), cpuFigures: false }, msPerCase, figures, failures);
    // The simulator runs in this process: stopped before the canned stretches, so that its market loop's
    // CPU is not counted to either client.
    await stopSim();
    for (const n of CONCURRENCY) {
      await warmUp(bare);
      const floor = await measure(bare, n, msPerCase);
      figures[`canned.bare.c${n}.reqPerSec`] = Math.round(perSecond(floor));
      figures[`canned.bare.c${n}.cpuUsPerReq`] = Math.round(cpuPerRequest(floor));
      await warmUp(raw);
      const rawFloor = await measure(raw, n, msPerCase);
      figures[`canned.rawSocket.c${n}.reqPerSec`] = Math.round(perSecond(rawFloor));
      figures[`canned.rawSocket.c${n}.cpuUsPerReq`] = Math.round(cpuPerRequest(rawFloor));
    }
    const cannedRatios = await compareAll('canned', { ours: cannedOurs, ccxt: cannedCcxt, got: cannedGot, undici: cannedUndici, cpuFigures: true }, msPerCase, figures, failures);
    figures['canned.worstOursOverCcxt'] = Math.min(...cannedRatios);
    figures['sim.worstOursOverCcxt'] = Math.min(...simRatios);
    // exchange.http: undici against the default (socket), per canned case, measured interleaved in this run.
    const undiciKeys = Object.keys(figures).filter((k) => k.endsWith('.undiciOverSocket'));
    figures['canned.worstUndiciOverSocket'] = Math.min(...undiciKeys.map((k) => Number(figures[k])));
    figures['canned.worstSocketCpuOverUndici'] = Math.min(...undiciKeys.map((k) => Number(figures[k.replace(/undiciOverSocket$/, 'socketCpuOverUndici')])));
    figures['failures'] = failures.length === 0 ? 'none' : failures.join('; ');
    figures['operations'] = Object.entries(OPERATIONS)
      .map(([k, v]) => `${k}: ${v}`)
      .join(' | ');
    return {
      name: 'client requests/s: our ExchangeClient vs ccxt toobit, same calls, against canned replies and against the simulator',
      figures,
      target: 'issue 18: ours/ccxt ≥ 2 in every canned case (canned.worstOursOverCcxt), ≥ 1 against the simulator (sim.worstOursOverCcxt)',
    };
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

const OP_NAMES = Object.keys(OPERATIONS) as OpName[];

/**
 * Each operation at each concurrency, ours / ccxt / ccxt / ours (and `got`, our client over got, beside
 * them when given); writes the figures under `prefix` and answers the ratios ours / ccxt.
 */
async function compareAll(
  prefix: string,
  clients: { readonly ours: ClientOps; readonly ccxt: ClientOps; readonly got?: ClientOps; readonly undici?: ClientOps; readonly cpuFigures: boolean },
  msPerCase: number,
  figures: Record<string, number | string>,
  failures: string[],
): Promise<number[]> {
  const ratios: number[] = [];
  for (const op of OP_NAMES) {
    // Warm-up (connections, JIT), not counted.
    await warmUp(clients.ours[op]);
    await warmUp(clients.ccxt[op]);
    if (clients.got !== undefined) await warmUp(clients.got[op]);
    if (clients.undici !== undefined) await warmUp(clients.undici[op]);
    for (const n of CONCURRENCY) {
      const half = msPerCase / 2;
      const a1 = await measure(clients.ours[op], n, half);
      const b1 = await measure(clients.ccxt[op], n, half);
      const b2 = await measure(clients.ccxt[op], n, half);
      const a2 = await measure(clients.ours[op], n, half);
      const a = perSecond(a1, a2);
      const b = perSecond(b1, b2);
      const key = `${prefix}.${op}.c${n}`;
      figures[`${key}.oursReqPerSec`] = Math.round(a);
      figures[`${key}.ccxtReqPerSec`] = Math.round(b);
      figures[`${key}.oursOverCcxt`] = Number((a / b).toFixed(2));
      ratios.push(Number((a / b).toFixed(2)));
      if (clients.cpuFigures) {
        const ca = cpuPerRequest(a1, a2);
        const cb = cpuPerRequest(b1, b2);
        figures[`${key}.oursCpuUsPerReq`] = Math.round(ca);
        figures[`${key}.ccxtCpuUsPerReq`] = Math.round(cb);
        figures[`${key}.ccxtCpuOverOurs`] = Number((cb / ca).toFixed(2));
      }
      const tallies: Array<readonly [string, Tally]> = [['ours', a1], ['ours', a2], ['ccxt', b1], ['ccxt', b2]];
      if (clients.got !== undefined) {
        const g = await measure(clients.got[op], n, msPerCase);
        figures[`${key}.oursViaGotReqPerSec`] = Math.round(perSecond(g));
        figures[`${key}.oursViaGotCpuUsPerReq`] = Math.round(cpuPerRequest(g));
        tallies.push(["ours via got", g]);
      }
      if (clients.undici !== undefined) {
        // Our client over undici (exchange.http: undici) in halves around the default's: undici / ours / ours / undici.
        const u1 = await measure(clients.undici[op], n, half);
        const o1 = await measure(clients.ours[op], n, half);
        const o2 = await measure(clients.ours[op], n, half);
        const u2 = await measure(clients.undici[op], n, half);
        const u = perSecond(u1, u2);
        const o = perSecond(a1, a2, o1, o2);
        figures[`${key}.undiciReqPerSec`] = Math.round(u);
        figures[`${key}.undiciOverCcxt`] = Number((u / b).toFixed(2));
        figures[`${key}.undiciOverSocket`] = Number((u / o).toFixed(2));
        const cu = cpuPerRequest(u1, u2);
        const co = cpuPerRequest(a1, a2, o1, o2);
        figures[`${key}.undiciCpuUsPerReq`] = Math.round(cu);
        figures[`${key}.socketCpuOverUndici`] = Number((co / cu).toFixed(2));
        tallies.push(['ours via undici', u1], ['ours via undici', u2], ['ours', o1], ['ours', o2]);
      }
      for (const [who, t] of tallies) {
        if (t.failures > 0) failures.push(`${key} ${who}: ${t.failures} failed (${t.firstFailure ?? ''})`);
      }
    }
  }
  return ratios;
}

/** `http`: a transport of the caller's (got), or the name of one of the client's own (default: the client's default). */
async function ourClient(baseUrl: string, keys: { readonly apiKey: string; readonly secret: string }, stops: Array<() => Promise<void> | void>, http?: HttpPort | HttpStack): Promise<ExchangeClient> {
  const client = new ExchangeClient({
    baseUrl,
    credentials: { apiKey: keys.apiKey, apiSecret: keys.secret },
    time: systemTime,
    rateBudget: { weightLimit: UNLIMITED, ordersLimit: UNLIMITED, share: 1 },
    ...(http === undefined ? {} : typeof http === 'string' ? { httpStack: http } : { http }),
  });
  stops.push(() => client.stop());
  const synced = await client.start();
  if (!synced.ok) throw synced.error;
  return client;
}

async function ccxtClient(baseUrl: string, keys: { readonly apiKey: string; readonly secret: string }, stops: Array<() => Promise<void> | void>): Promise<toobit> {
  const exchange = new toobit({ apiKey: keys.apiKey, secret: keys.secret, enableRateLimit: false, options: { defaultType: 'swap' } });
  exchange.urls['api'] = { common: baseUrl, private: baseUrl };
  stops.push(() => exchange.close());
  await exchange.loadMarkets();
  return exchange;
}

/** The floor: a bare `http.request` of the ticker over a kept-alive socket, its body read and `JSON.parse`d. */
function bareTicker(baseUrl: string, stops: Array<() => Promise<void> | void>): Operation {
  const agent = new Agent({ keepAlive: true });
  stops.push(() => agent.destroy());
  const url = `${baseUrl}/quote/v1/contract/ticker/24hr?symbol=${SYMBOL}`;
  return () =>
    new Promise<number>((resolve, reject) => {
      const req = request(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          JSON.parse(Buffer.concat(chunks).toString('utf8'));
          resolve(1);
        });
      });
      req.on('error', reject);
      req.end();
    });
}

/**
 * What the server and the loopback round trip cost, clients aside: the ticker request as fixed bytes on
 * kept-alive sockets (one per caller, no-delay), its reply counted to its Content-Length, nothing parsed.
 * Its requests/s bound what any client could reach against this server on this machine.
 */
function rawSocketTicker(baseUrl: string, stops: Array<() => Promise<void> | void>): Operation {
  const url = new URL(baseUrl);
  const text = Buffer.from(`GET /quote/v1/contract/ticker/24hr?symbol=${SYMBOL} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`, 'latin1');
  const idle: Socket[] = [];
  const all: Socket[] = [];
  stops.push(() => all.forEach((socket) => socket.destroy()));
  return async () => {
    const socket = idle.pop() ?? (await open(url, all));
    await new Promise<void>((resolve, reject) => {
      let head = '';
      let left = -1;
      const onData = (chunk: Buffer): void => {
        if (left < 0) {
          head += chunk.toString('latin1');
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) return;
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(head.slice(0, end));
          left = end + 4 + Number(length?.[1] ?? 0) - head.length;
        } else left -= chunk.length;
        if (left > 0) return;
        socket.off('data', onData);
        socket.off('error', reject);
        resolve();
      };
      socket.on('data', onData);
      socket.once('error', reject);
      socket.write(text);
    });
    idle.push(socket);
    return 1;
  };
}

async function open(url: URL, all: Socket[]): Promise<Socket> {
  const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
  all.push(socket);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
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

/**
 * A full garbage collection, run before each measured stretch: without it, the garbage one client left
 * (ccxt makes several times ours per request) is collected in the next stretch, often the other
 * client's, and charged to it. `--expose-gc` set at run time, the way `node --expose-gc` would.
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  return typeof gc === 'function' ? () => void gc() : () => undefined;
})();

/** Requests each client makes before it is measured: V8 is still optimizing the client's code after hundreds. */
const WARM_UP_REQUESTS = 1000;
const WARM_UP_MS = { min: 300, max: 3000 } as const;

/**
 * Runs the operation, 8 callers, not counted, until it has made WARM_UP_REQUESTS requests (and at least
 * WARM_UP_MS.min passed; at most WARM_UP_MS.max): the same number for every client, where a fixed time
 * left the slower one compiling its code inside its measured stretch.
 */
async function warmUp(op: Operation): Promise<void> {
  const started = performance.now();
  let requests = 0;
  const done = (): boolean => {
    const elapsed = performance.now() - started;
    return elapsed >= WARM_UP_MS.max || (requests >= WARM_UP_REQUESTS && elapsed >= WARM_UP_MS.min);
  };
  const caller = async (): Promise<void> => {
    while (!done()) {
      try {
        const outcome = await op();
        requests += typeof outcome === 'number' ? outcome : 1;
      } catch {
        requests++;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, () => caller()));
}

/** `workers` callers repeat the operation until `ms` have passed; counts the HTTP requests answered. */
async function measure(op: Operation, workers: number, ms: number): Promise<Tally> {
  const tally: Tally = { requests: 0, failures: 0, ms: 0, cpuUs: 0, firstFailure: undefined };
  collectGarbage();
  const cpu = process.cpuUsage();
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
  const used = process.cpuUsage(cpu);
  tally.cpuUs = used.user + used.system;
  return tally;
}

/** CPU µs of this process per request answered (the server's work is not in it when it runs elsewhere). */
function cpuPerRequest(...tallies: readonly Tally[]): number {
  const requests = tallies.reduce((s, t) => s + t.requests, 0);
  return tallies.reduce((s, t) => s + t.cpuUs, 0) / Math.max(1, requests);
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
