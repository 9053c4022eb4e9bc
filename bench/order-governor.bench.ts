import { Decimal } from '../src/core/decimal.js';
import { systemTime } from '../src/core/system-time.js';
import { loadSimConfig } from '../src/app/commands/sim.js';
import type { LimitVerdict } from '../src/sim/server/rate-limits.js';
import { SimulatedExchange } from '../src/sim/simulated-exchange.js';
import { ExchangeClient } from '../src/venue/exchange-client.js';
import type { BatchOrderV2 } from '../src/venue/api/orders/v2.js';
import type { BenchResult } from './bench-result.js';

const SYMBOL = 'BTC-SWAP-USDT';
/** Workers placing one order per request, and workers placing batches of BATCH_LEGS (each leg spends one unit). */
const SINGLE_WORKERS = 12;
const BATCH_WORKERS = 2;
const BATCH_LEGS = 5;
/** Resting orders are swept this often (cancels spend weight, not ORDERS), staying under 200 open orders. */
const SWEEP_MS = 500;

interface ServerWindows {
  /** ORDERS units the server let through, per fixed window (keyed by the window's start). */
  readonly accepted: Map<number, number>;
  limited: number;
  banned: number;
}

/**
 * The client's order-rate governor against the simulator at the exchange's real budgets (60 ORDERS
 * per 2 s per user in fixed windows, 3000 weight a minute): our ExchangeClient with the whole budget
 * (share 1) floods v2 LIMIT orders far below the market — single orders and batch legs — for about
 * `seconds` of wall time. The server's own verdicts are tapped, so the figures are what the exchange
 * counted: ORDERS units accepted per whole window as a share of 60, and every 429 / -1015 / 418.
 * (Order requests keep their order in the governor's queue, so a batch that does not fit what is
 * left of a window waits for the next one and a window can end a few units short.)
 */
export async function benchOrderGovernor(seconds = 20): Promise<BenchResult> {
  const loaded = loadSimConfig({ port: '0' });
  if (!loaded.ok) throw loaded.error;
  const sim = await SimulatedExchange.start({ config: loaded.value, time: systemTime });
  const windowMs = sim.http.limits.settings.ordersWindowMs;
  const limit = sim.http.limits.ordersLimit();
  const server = tapOrderVerdicts(sim, windowMs);
  const trader = sim.address.accounts.find((a) => a.name === 'trader');
  if (trader === undefined) throw new Error('config/sim.yml has no trader key');
  const client = new ExchangeClient({
    baseUrl: sim.address.baseUrl,
    credentials: { apiKey: trader.apiKey, apiSecret: trader.secret },
    time: systemTime,
    rateBudget: { share: 1 },
  });
  try {
    const synced = await client.start();
    if (!synced.ok) throw synced.error;
    const price = await farBelowMarket(client);
    const statuses = new Map<string, number>();
    client.rest.exchanges.listen((x) => {
      const key = x.status === 429 || x.status === 418 ? `${x.status}/${String(x.code)}` : typeof x.status === 'number' && x.status < 400 ? 'ok' : String(x.status);
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    });
    let sequence = 0;
    let otherErrors = 0;
    const order = (): BatchOrderV2 => ({ symbol: SYMBOL, side: 'BUY', positionSide: 'LONG', type: 'LIMIT', price, quantity: new Decimal(1), newClientOrderId: `gov-${sequence++}` });
    const started = systemTime.clock.now();
    const deadline = started + seconds * 1000;
    const running = (): boolean => systemTime.clock.now() < deadline;
    const single = async (): Promise<void> => {
      while (running()) {
        const placed = await client.ordersV2.placeOrder(order());
        if (!placed.ok && placed.error.kind !== 'rate-limited') otherErrors++;
      }
    };
    const batch = async (): Promise<void> => {
      while (running()) {
        const placed = await client.ordersV2.placeBatch(Array.from({ length: BATCH_LEGS }, () => order()));
        if (!placed.ok && placed.error.kind !== 'rate-limited') otherErrors++;
        else if (placed.ok) otherErrors += placed.value.filter((leg) => leg.code !== 200 && leg.code !== 0).length;
      }
    };
    const sweep = async (): Promise<void> => {
      while (running()) {
        await new Promise((resolve) => setTimeout(resolve, SWEEP_MS));
        const swept = await client.ordersV2.cancelAll([SYMBOL]);
        if (!swept.ok) otherErrors++;
      }
    };
    await Promise.all([
      ...Array.from({ length: SINGLE_WORKERS }, () => single()),
      ...Array.from({ length: BATCH_WORKERS }, () => batch()),
      sweep(),
    ]);
    const whole = wholeWindows(server.accepted, started, deadline, windowMs);
    const total = whole.reduce((s, n) => s + n, 0);
    const mean = whole.length === 0 ? 0 : total / whole.length;
    return {
      name: 'order-rate governor: ORDERS budget sustained against the simulator (60 per 2 s, fixed windows)',
      figures: {
        seconds,
        floodStartInWindowMs: started % windowMs,
        singleWorkers: SINGLE_WORKERS,
        batchWorkers: BATCH_WORKERS,
        batchLegs: BATCH_LEGS,
        ordersLimit: limit,
        ordersWindowMs: windowMs,
        wholeWindows: whole.length,
        unitsAcceptedInWholeWindows: total,
        unitsPerWindowMean: Number(mean.toFixed(2)),
        unitsPerWindowMin: whole.length === 0 ? 0 : Math.min(...whole),
        unitsPerWindowMax: whole.length === 0 ? 0 : Math.max(...whole),
        unitsPerWindow: whole.join(' '),
        shareOfBudget: Number((mean / limit).toFixed(4)),
        serverRefused429: server.limited,
        serverBanned418: server.banned,
        clientReplies: [...statuses].map(([k, n]) => `${k}:${n}`).join(' '),
        otherErrors,
      },
      target: '≥ 0.95 of the ORDERS budget with zero 429s',
    };
  } finally {
    client.stop();
    await sim.stop();
  }
}

/** Wraps the server's ORDERS check to count, per fixed window, the units it let through and the refusals. */
function tapOrderVerdicts(sim: SimulatedExchange, windowMs: number): ServerWindows {
  const limits = sim.http.limits;
  const spend = limits.spendOrders.bind(limits);
  const windows: ServerWindows = { accepted: new Map(), limited: 0, banned: 0 };
  limits.spendOrders = (userId: string, ip: string, units: number, now: number): LimitVerdict => {
    const verdict = spend(userId, ip, units, now);
    if (verdict.kind === 'ok') {
      const start = now - (now % windowMs);
      windows.accepted.set(start, (windows.accepted.get(start) ?? 0) + units);
    } else if (verdict.kind === 'limited') windows.limited++;
    else windows.banned++;
    return verdict;
  };
  return windows;
}

/** Units accepted in each server window lying wholly inside [from, to). */
function wholeWindows(accepted: ReadonlyMap<number, number>, from: number, to: number, windowMs: number): number[] {
  const counts: number[] = [];
  for (let start = Math.ceil(from / windowMs) * windowMs; start + windowMs <= to; start += windowMs) counts.push(accepted.get(start) ?? 0);
  return counts;
}

/** Four fifths of the best bid, on the 0.1 tick: rests on the book, never fills. */
async function farBelowMarket(client: ExchangeClient): Promise<Decimal> {
  const books = await client.market.contractBookTicker(SYMBOL);
  const bid = books.ok ? books.value[0]?.bidPrice : undefined;
  if (bid === undefined) throw new Error(`no best bid for ${SYMBOL}: ${books.ok ? 'empty book' : books.error.message}`);
  return bid.mul('0.8').toDecimalPlaces(1, Decimal.ROUND_DOWN);
}
