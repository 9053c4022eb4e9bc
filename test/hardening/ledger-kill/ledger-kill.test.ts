import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { dec } from '../../../src/core/decimal.js';
import { systemTime } from '../../../src/core/system-time.js';
import { strategyOfClientOrderId } from '../../../src/engine/execution/client-order-ids.js';
import type { AccountRef, OrderView } from '../../../src/sim/engine/types.js';
import { BTC_SWAP_USDT } from '../../../src/sim/market-stream/instruments.js';
import { SimulatedExchange } from '../../../src/sim/simulated-exchange.js';
import { ENDPOINTS, endpointLabel } from '../../../src/protocol/endpoints.js';
import { writeConfig } from '../../app/daemon/daemon-harness.js';
import { simConfig } from '../../sim/e2e/sim-harness.js';
import { freePort } from '../../support/free-port.js';
import { DaemonProcess, eventually } from './daemon-process.js';
import { ScriptedMarket, SILENT_FEED } from './scripted-market.js';

/**
 * Issue 23's done-when: two strategies trading one symbol in one account — the bundled grid and trend
 * strategies on BTC-SWAP-USDT — each see and manage only their own position, also after a kill -9.
 * `stratd run` (live mode, built code) is a spawned process trading a simulator of the test's own (so
 * the account outlives the daemon), whose market the test writes (ScriptedMarket) on a market clock it
 * moves itself: a 1m kline closes as soon as the test opens the next minute and the daemon has polled.
 *   1. The grid (long cells 2000 apart) rests buys at 99000 and 97000; falling 1m closes warm trend up
 *      with its fast EMA below the slow one; a dip to 99000 fills the grid's buy (grid: long 10).
 *   2. The minute closes at 100900 (below the grid's take-profit at 101000): trend sees a golden cross
 *      and goes long 7 (maxPosition) — although the ACCOUNT is long already.
 *   3. /status ledgers: grid 10 @ 99000, trend 7 @ its fill (both = what the exchange's orders of each
 *      filled), nothing external; they sum to the account's 17.
 *   4. SIGKILL, restart on the same state directory: the ledgers are the same, row for row; the grid's
 *      orders are still sized from its own 10.
 *   5. SIGTERM: trend (closeOnStop) closes its own 7, the grid's 10 stay on the exchange.
 * Step 2 fails when trend reads the account's position (it would see a long and skip its entry); steps
 * 4 and 5 fail when the ledgers are not journaled (the restart books the 17 to `external`, and trend has
 * nothing of its own to close).
 */
const BTC = BTC_SWAP_USDT.symbol;
const TOKEN = 'ledger-kill-control-token-0123456789';
/** Closes of the 1m klines after the start (at 100500): falling, so trend's fast EMA stays below its slow one. */
const FALLING = [100400, 100300, 100200, 100100];

const ledgerRow = z.object({ owner: z.string(), symbol: z.string(), side: z.string(), qty: z.string(), avgPrice: z.string(), realizedPnl: z.string(), fees: z.string(), funding: z.string() });
const statusBody = z.object({ ledgers: z.array(ledgerRow), positions: z.array(z.object({ symbol: z.string(), side: z.string(), qty: z.string() }).passthrough()) }).passthrough();
type LedgerRow = z.output<typeof ledgerRow>;

function yaml(stateDir: string, port: number): string {
  return `mode: live
stateDir: ${stateDir}
exchange:
  baseUrl: \${TEST_SIM_BASE_URL}
  streamUrl: \${TEST_SIM_STREAM_URL}
  apiKey: \${TEST_API_KEY}
  apiSecret: \${TEST_API_SECRET}
  recvWindowMs: 5000
  timeoutMs: 3000
market:
  - symbol: ${BTC}
    depth: { every: 500ms, limit: 20, via: poll }
    trades: { every: 500ms, via: poll }
    markPrice: { every: 500ms, via: poll }
    klines: { every: 250ms, intervals: [1m], via: poll }
userStream: { pingEvery: 20s, pongTimeout: 2m, backoff: { initial: 500ms, max: 4s } }
jobs: { listenKeyKeepalive: "0 0 29 2 *", exchangeInfoRefresh: "0 0 29 2 *", reconcile: "0 0 29 2 *", dailyReset: "0 0 29 2 *" }
risk: { dailyLossLimit: 100000, maxOpenOrders: 50, maxOrdersPerMinute: 600, priceBandPct: 5 }
strategies:
  - id: grid-btc
    module: grid
    symbols: [${BTC}]
    params: { lower: 97000, upper: 103000, levels: 4, mode: long, quantity: 10, maxPosition: 20, reference: mid, closeOnExit: true, cancelOnStop: true }
    risk: { maxPosition: 40, maxOpenOrders: 10, maxOrdersPerMinute: 120 }
  - id: trend-btc
    module: trend
    symbols: [${BTC}]
    params: { interval: 1m, fastPeriod: 2, slowPeriod: 4, atrPeriod: 3, slMultiple: 2, tpMultiple: 3, riskPerTrade: 1000, maxPosition: 7, allowShort: false, closeOnStop: true }
    risk: { maxPosition: 20, maxOpenOrders: 6, maxOrdersPerMinute: 60 }
orphans: adopt
shutdown: { cancelOpenOrders: true, timeout: 10s }
health: { host: 127.0.0.1, port: ${port} }
log: { level: ${process.env['LEDGER_KILL_LOG_LEVEL'] ?? 'silent'} }
`;
}

let dir: string;
let sim: SimulatedExchange;
let market: ScriptedMarket;
let env: Record<string, string>;
let ref: AccountRef;
const lives: DaemonProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stratd-ledger-kill-'));
  const config = simConfig();
  sim = await SimulatedExchange.start({ config, time: systemTime, tickMs: 100, market: { feed: SILENT_FEED, instruments: [BTC_SWAP_USDT] } });
  market = new ScriptedMarket(BTC, systemTime.clock.now(), (event) => sim.engine.applyMarketEvent(event));
  market.move(100500);
  const trader = sim.address.accounts.find((a) => a.name === 'trader');
  if (trader === undefined) throw new Error('config/sim.yml has no trader key');
  ref = { userId: trader.userId, category: 'USDT' };
  env = { TEST_SIM_BASE_URL: sim.address.baseUrl, TEST_SIM_STREAM_URL: sim.address.streamUrl, TEST_API_KEY: trader.apiKey, TEST_API_SECRET: trader.secret };
});

afterAll(async () => {
  for (const life of lives) life.kill('SIGKILL');
  await Promise.all(lives.map((life) => life.exited));
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function launch(config: string, url: string): Promise<DaemonProcess> {
  const life = new DaemonProcess(config, env, url, TOKEN);
  lives.push(life);
  await life.ready();
  return life;
}

/** How many kline requests the simulator has answered (the daemon polls every 250 ms: each minute the test closes is seen soon). */
async function klinePolls(): Promise<number> {
  const label = endpointLabel(ENDPOINTS.klines);
  const text = await (await fetch(`${sim.address.baseUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^stratd_sim_requests_total\{([^}]*)\} (\d+)/.exec(line);
    if (m?.[1]?.includes(`route="${label}"`) === true) total += Number(m[2]);
  }
  return total;
}

/** The next minute opens at `price`, and the daemon has polled the klines since (it has seen the minute before close). */
async function closeMinute(price: number): Promise<void> {
  market.closeMinute(price);
  const seen = await klinePolls();
  await eventually(async () => (await klinePolls()) > seen + 1, 'a kline poll of the daemon', 10_000);
}

async function ledgers(life: DaemonProcess): Promise<LedgerRow[]> {
  const body = statusBody.parse(await life.status());
  return body.ledgers.filter((row) => row.symbol === BTC).sort((a, b) => a.owner.localeCompare(b.owner) || a.side.localeCompare(b.side));
}

async function own(life: DaemonProcess, owner: string): Promise<string> {
  return (await ledgers(life)).find((row) => row.owner === owner && row.side === 'LONG')?.qty ?? '0';
}

function accountLong(): string {
  return sim.engine.positions(ref, BTC, 'LONG').reduce((sum, p) => sum.plus(p.position), dec(0)).toFixed();
}

function ordersOf(owner: string, open: boolean): OrderView[] {
  const query = { limit: Number.MAX_SAFE_INTEGER };
  const orders = open ? sim.engine.openOrders(ref, query) : [...sim.engine.openOrders(ref, query), ...sim.engine.historyOrders(ref, query)];
  return orders.filter((o) => o.symbol === BTC && strategyOfClientOrderId(o.clientOrderId, ['grid-btc', 'trend-btc']) === owner);
}

/** What an owner's fills built on the LONG side, from the exchange's orders: contracts and their average price. */
function builtByFills(owner: string): { qty: string; avgPrice: string } {
  let qty = dec(0);
  let cost = dec(0);
  for (const o of ordersOf(owner, false)) {
    if (o.positionSide !== 'LONG' || o.side !== 'BUY' || dec(o.executedQty).isZero()) continue;
    qty = qty.plus(o.executedQty);
    cost = cost.plus(dec(o.executedQty).mul(o.avgPrice));
  }
  const sold = ordersOf(owner, false).filter((o) => o.positionSide === 'LONG' && o.side === 'SELL').reduce((sum, o) => sum.plus(o.executedQty), dec(0));
  if (!sold.isZero()) throw new Error(`${owner} sold ${sold.toFixed()} LONG: the scenario has no closing fill before the kill`);
  return { qty: qty.toFixed(), avgPrice: qty.isZero() ? '0' : cost.div(qty).toFixed() };
}

function openRows(owner: string): string[] {
  return ordersOf(owner, true)
    .map((o) => `${o.side} ${o.positionSide} ${dec(o.price).toFixed()} ${dec(o.origQty).minus(o.executedQty).toFixed()}`)
    .sort();
}

describe('two strategies on one symbol in one account, kill -9 (issue 23)', () => {
  it('grid and trend each hold and manage their own position; the ledgers survive a SIGKILL exactly', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const config = writeConfig(dir, 'ledger-kill.yml', yaml(join(dir, 'state'), port));

    let life = await launch(config, url);
    // The grid (long cells, mid 100500) rests its buys at 99000 and 97000.
    await eventually(() => openRows('grid-btc').length === 2, 'the grid resting its two buys', 20_000);
    expect(openRows('grid-btc')).toEqual(['BUY LONG 97000 10', 'BUY LONG 99000 10']);
    // Falling 1m klines: trend's EMAs and ATR get ready, fast below slow (no crossing).
    await eventually(async () => (await klinePolls()) > 0, 'the first kline poll', 10_000);
    for (const close of FALLING) await closeMinute(close);

    // 1. A dip to 99000 fills the grid's buy there; it offers the 10 one level up (reduce-only).
    market.move(99000, true);
    await eventually(async () => (await own(life, 'grid-btc')) === '10', 'the grid long 10 in its ledger', 20_000);
    market.move(100900);
    await eventually(() => openRows('grid-btc').includes('SELL LONG 101000 10'), 'the grid offering its 10 at 101000', 20_000);

    // 2. The minute closes at 100900: trend sees the golden cross and goes long, although the account
    // holds the grid's long already.
    await closeMinute(100900);
    await eventually(async () => (await own(life, 'trend-btc')) === '7', 'trend long 7 in its ledger (golden cross)', 20_000);

    // 3. Each ledger is what its own fills built; nothing is external; the ledgers sum to the account.
    const grid = builtByFills('grid-btc');
    const trend = builtByFills('trend-btc');
    expect(grid).toEqual({ qty: '10', avgPrice: '99000' });
    expect(trend.qty).toBe('7');
    const before = await ledgers(life);
    expect(before.map((r) => [r.owner, r.side, r.qty, r.avgPrice])).toEqual([
      ['grid-btc', 'LONG', grid.qty, grid.avgPrice],
      ['trend-btc', 'LONG', trend.qty, trend.avgPrice],
    ]);
    expect(accountLong()).toBe('17');
    const positions = statusBody.parse(await life.status()).positions.filter((p) => p.symbol === BTC && p.side === 'LONG');
    expect(positions.map((p) => p.qty)).toEqual(['17']);
    const gridOrders = openRows('grid-btc');
    expect(gridOrders).toEqual(['BUY LONG 97000 10', 'SELL LONG 101000 10']);

    // 4. kill -9 and restart on the same state directory: the same ledgers, row for row.
    life.kill('SIGKILL');
    expect((await life.exited).signal).toBe('SIGKILL');
    life = await launch(config, url);
    expect(await ledgers(life)).toEqual(before);
    // The grid keeps managing its own 10: its orders are the same after it has looked at its holding again.
    await eventually(() => JSON.stringify(openRows('grid-btc')) === JSON.stringify(gridOrders), 'the grid orders after the restart', 10_000);
    expect(accountLong()).toBe('17');

    // 5. A clean stop: trend (closeOnStop) closes what it holds itself, the grid's 10 stay.
    life.kill('SIGTERM');
    expect((await life.exited).code).toBe(0);
    const closes = ordersOf('trend-btc', false).filter((o) => o.side === 'SELL' && o.positionSide === 'LONG');
    expect(closes.map((o) => dec(o.executedQty).toFixed())).toEqual(['7']);
    expect(accountLong()).toBe('10');
  }, 120_000);
});
