import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runParity } from '../../../src/app/commands/parity.js';
import type { ParityOutcome } from '../../../src/app/commands/parity.js';
import type { Daemon } from '../../../src/app/daemon/daemon.js';
import { resolveStrategies } from '../../../src/app/daemon/strategies.js';
import type { DaemonStatus } from '../../../src/app/control/status.js';
import type { LiveMarketStatus } from '../../../src/app/paper-live/market.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import { formatParityReport } from '../../../src/parity/compare.js';
import { silentLogger } from '../../../src/core/logger.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { MarketEvent } from '../../../src/sim/market-stream/events.js';
import { MarketStreamReader, readMarketStream } from '../../../src/sim/market-stream/reader.js';
import { ENDPOINTS, endpointLabel } from '../../../src/protocol/endpoints.js';
import { tempDir, writeRecording } from '../../backtest/backtest-support.js';
import { T0 } from '../../sim/e2e/sim-harness.js';
import { runSettled } from './virtual-steps.js';
import type { MetricSample } from './metrics-scrape.js';
import { sample as metric, scrape } from './metrics-scrape.js';
import { NEVER, SIM_YML } from './daemon-harness.js';

/**
 * Paper on the live market, without the internet: a spawned `stratd sim` replaying the shipped sample's first minutes
 * recording stands in for the real exchange (only its public endpoints are used); a paper daemon with
 * `sim.market: live` pointed at it trades the two example strategies of config/paper-live.yml on its
 * prices, in virtual time, under `stratd parity`: the embedded simulator's whole market stream is
 * recorded and backtested. Checked: the paper market is the stand-in's (every trade and book came from
 * the sample), fills lie within the book of their moment, nothing signed and no API key reached the
 * stand-in, and the backtest of the recording makes the same fills.
 */

const BIN = fileURLToPath(new URL('../../../bin/stratd.js', import.meta.url));
const PAPER_LIVE_YML = fileURLToPath(new URL('../../../config/paper-live.yml', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../../../data/sample-market.jsonl.gz', import.meta.url));

const tmp = tempDir();
afterAll(() => tmp.remove());

interface StandIn {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** Minutes of the sample the stand-in replays: it loads its replay whole and serves it on the wall clock, which no run of this suite comes near. */
const REPLAYED_MINUTES = 20;

/** The sample's first `minutes`, as a recording of its own at `path`. */
async function sampleHead(path: string, minutes: number): Promise<string> {
  const reader = await MarketStreamReader.open(SAMPLE);
  const end = reader.header.startTime + minutes * 60_000;
  const head: MarketEvent[] = [];
  for await (const event of reader) {
    if (event.ts >= end) break;
    head.push(event);
  }
  return writeRecording(path, head, reader.header);
}

/** `stratd sim --json --port 0` replaying `recording`: its one JSON line names its URL. */
async function startStandIn(dir: string, recording: string): Promise<StandIn> {
  const simYml = join(dir, 'stand-in.yml');
  // The daemon polls in virtual time, many times faster than the stand-in's wall-clock rate windows: the
  // exchange's budgets would answer 429 and then ban it (HTTP 418) once its back-off, virtual too, ran out.
  const budgets = 'rateLimits: { weightLimit: 10000000, banAfterRejections: 10000000 }\n';
  writeFileSync(simYml, readFileSync(SIM_YML, 'utf8').replace(/^market:\n {2}symbols: .*$/m, `market:\n  replay: ${recording}`) + budgets);
  const child = spawn(process.execPath, [BIN, 'sim', '--json', '--port', '0', '--config', simYml], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`stratd sim exited with ${String(code)}`)));
  });
  const info = JSON.parse(first) as { baseUrl: string };
  return {
    baseUrl: info.baseUrl,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** config/paper-live.yml pointed at the stand-in, with what a test must change. An API key variable is written (and unset): it must be ignored. */
function paperLiveConfig(dir: string, baseUrl: string): string {
  let text = readFileSync(PAPER_LIVE_YML, 'utf8');
  const replace = (from: RegExp, to: string): void => {
    if (!from.test(text)) throw new Error(`config/paper-live.yml no longer has ${String(from)}`);
    text = text.replace(from, to);
  };
  replace(/^ {2}baseUrl: .*$/m, `  baseUrl: ${baseUrl}\n  apiKey: \${STRATD_API_KEY}\n  apiSecret: \${STRATD_API_SECRET}`);
  replace(/^stateDir: .*$/m, `stateDir: ${join(dir, 'state')}`);
  replace(/^(\s+)config: \.\/sim\.yml.*$/m, `$1config: ${SIM_YML}`);
  replace(/^health: .*$/m, 'health: { host: 127.0.0.1, port: 0 }');
  replace(/^log: .*$/m, 'log: { level: silent }');
  replace(/^jobs:.*\n(?:[ \t]+.*\n)+/m, `jobs: { listenKeyKeepalive: "${NEVER}", exchangeInfoRefresh: "${NEVER}", reconcile: "${NEVER}", dailyReset: "${NEVER}", catalogSync: "${NEVER}" }\n`);
  const file = join(dir, 'paper-live.yml');
  writeFileSync(file, text);
  return file;
}

/** What the stand-in's /metrics counted: requests per route, and those carrying a key or a signature. */
async function standInTraffic(baseUrl: string): Promise<{ readonly routes: ReadonlySet<string>; readonly credentialed: number }> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const routes = new Set<string>();
  let credentialed = 0;
  for (const line of text.split('\n')) {
    const request = /^stratd_sim_requests_total\{route="([^"]+)"/.exec(line);
    if (request?.[1] !== undefined) routes.add(request[1]);
    const signed = /^stratd_sim_credentialed_requests_total\{[^}]*\} (\d+)/.exec(line);
    if (signed?.[1] !== undefined) credentialed += Number(signed[1]);
  }
  return { routes, credentialed };
}

async function events(path: string): Promise<MarketEvent[]> {
  const out: MarketEvent[] = [];
  for await (const event of readMarketStream(path)) out.push(event);
  return out;
}

/** Fills the paper account must have made for the comparison to mean something. */
const MIN_FILLS = 2;

const PUBLIC_ROUTES = new Set(Object.values(ENDPOINTS).filter((e) => e.security === 'NONE').map(endpointLabel));

describe('paper on the live market (a stratd sim process stands in for the exchange)', () => {
  let standIn: StandIn;
  /** The recording the stand-in replays: the sample's first minutes. */
  let replayed: string;
  let outcome: ParityOutcome;
  let status: LiveMarketStatus | undefined;
  let metrics: readonly MetricSample[] = [];
  let liveClientHadCredentials: boolean | undefined;

  beforeAll(async () => {
    const dir = tmp.path('paper-live');
    mkdirSync(dir);
    replayed = await sampleHead(join(dir, 'replayed.jsonl'), REPLAYED_MINUTES);
    standIn = await startStandIn(dir, replayed);
    const prepared = await prepareRun({ config: paperLiveConfig(dir, standIn.baseUrl) }, {});
    if (!prepared.ok) throw prepared.error;
    const { config } = prepared.value;
    const clock = new VirtualClock(T0);
    const probe = (daemon: Daemon): { inFlight(): number; activity(): number } => {
      let count = 0;
      daemon.kernel.events$.subscribe(() => count++);
      daemon.venue.sim?.engine.onAccountEvent(() => count++);
      daemon.venue.sim?.engine.onMarketEvent(() => count++);
      // The live feed's requests to the stand-in are waited for too: each reply arrives at its request's virtual instant.
      return { inFlight: () => daemon.venue.client.rest.inFlight + (daemon.venue.liveMarket?.client.rest.inFlight ?? 0), activity: () => count };
    };
    const ran = await runParity({
      config,
      strategies: () => resolveStrategies(config),
      time: clock,
      logger: silentLogger,
      dir: join(dir, 'parity'),
      wait: async (daemon) => {
        liveClientHadCredentials = daemon.venue.liveMarket?.client.rest.hasCredentials;
        let fills = 0;
        daemon.kernel.events$.subscribe((event) => {
          if (event.type === 'account.fill') fills += 1;
        });
        // The stand-in's market moves on its own wall clock, so how much of it 3 virtual minutes see
        // depends on the machine's load: run on (at most 15 virtual minutes) until the account has traded.
        const activity = probe(daemon);
        await runSettled(clock, 3 * 60_000, activity);
        for (let extra = 0; fills < MIN_FILLS && extra < 12; extra += 1) await runSettled(clock, 60_000, activity);
        // Over the health server, as an operator (and the dashboard) reads them.
        const token = readFileSync(join(dir, 'parity', 'state', 'control.token'), 'utf8').trim();
        const reply = await fetch(`${daemon.health.url}/status`, { headers: { authorization: `Bearer ${token}` } });
        status = ((await reply.json()) as DaemonStatus).liveMarket;
        metrics = await scrape(daemon.health.url);
      },
      // The stand-in is another process on the wall clock: its replies land inside a virtual instant in
      // real time, racing the daemon's own loopback traffic (its user-stream frames among them), so on a
      // loaded machine a strategy may requote one poll later than in the backtest. The fills must agree.
      toleranceMs: 1000,
      env: {},
    });
    if (!ran.ok) throw ran.error;
    outcome = ran.value;
  }, 300_000);

  afterAll(async () => {
    await standIn.stop();
  });

  test('the paper daemon traded, and the backtest of the recorded session made the same fills', () => {
    const { report, recording, backtest } = outcome;
    // The fills must agree; order placements are compared too but not required here (see toleranceMs above).
    expect({ identical: report.fills.identical, text: formatParityReport(report) }).toEqual({ identical: true, text: expect.stringMatching(/fills: identical/) });
    expect(report.fills.live).toBeGreaterThanOrEqual(MIN_FILLS);
    expect(report.fills.live).toBe(recording.fills.length);
    expect(backtest.fills.length).toBe(recording.fills.length);
  });

  test("the simulator's market was the stand-in's: every trade and every book came from the recording it replays", async () => {
    const sample = await events(replayed);
    // The exchange's recent trades carry no id: a trade is known by its symbol, price, size and side.
    const sampleTrades = new Set(sample.flatMap((e) => (e.type === 'trade' ? [`${e.symbol} ${e.price} ${e.qty} ${String(e.buyerIsMaker)}`] : [])));
    const sampleTops = new Set(sample.flatMap((e) => (e.type === 'depth' && e.bids[0] !== undefined && e.asks[0] !== undefined ? [`${e.symbol} ${e.bids[0].join('@')} ${e.asks[0].join('@')}`] : [])));
    const paper = await events(outcome.recording.path);
    const trades = paper.filter((e) => e.type === 'trade');
    const books = paper.filter((e) => e.type === 'depth' && e.bids.length > 0);
    expect(trades.length).toBeGreaterThan(10);
    expect(books.length).toBeGreaterThan(100);
    const tradeKeys = trades.flatMap((t) => (t.type === 'trade' ? [`${t.symbol} ${t.price} ${t.qty} ${String(t.buyerIsMaker)}`] : []));
    expect(tradeKeys.filter((k) => !sampleTrades.has(k)).slice(0, 5)).toEqual([]);
    const bookKeys = books.flatMap((b) => (b.type === 'depth' ? [`${b.symbol} ${b.bids[0]?.join('@') ?? ''} ${b.asks[0]?.join('@') ?? ''}`] : []));
    expect(bookKeys.filter((k) => !sampleTops.has(k)).slice(0, 5)).toEqual([]);
  });

  test("every fill follows the stand-in's book and trades of its moment: a taker fill within the book, a maker fill where the book or a trade reached its price", async () => {
    const paper = await events(outcome.recording.path);
    expect(outcome.recording.fills.length).toBeGreaterThan(0);
    const misfits: string[] = [];
    for (const fill of outcome.recording.fills) {
      const before = paper.filter((e) => e.symbol === fill.symbol && e.ts <= fill.time);
      const book = before.filter((e) => e.type === 'depth').at(-1);
      if (book?.type !== 'depth' || book.bids.length === 0 || book.asks.length === 0) {
        misfits.push(`${fill.time} ${fill.symbol}: no book in force`);
        continue;
      }
      const price = fill.price.toNumber();
      const buy = fill.side === 'BUY';
      const bestBid = Number(book.bids[0]?.[0]);
      const bestAsk = Number(book.asks[0]?.[0]);
      let follows: boolean;
      if (!fill.isMaker) follows = buy ? price >= bestAsk && price <= Number(book.asks.at(-1)?.[0]) : price <= bestBid && price >= Number(book.bids.at(-1)?.[0]);
      else {
        // A resting order fills when the market reaches it: the opposite side of the book at or through its price, or a trade printed there.
        const trade = before.filter((e) => e.type === 'trade' && e.ts === fill.time).at(-1);
        const traded = trade?.type === 'trade' && (buy ? Number(trade.price) <= price : Number(trade.price) >= price);
        follows = traded || (buy ? bestAsk <= price : bestBid >= price);
      }
      if (!follows) misfits.push(`${fill.time} ${fill.symbol} ${fill.side} ${fill.isMaker ? 'maker' : 'taker'} @ ${price}: book ${bestBid}/${bestAsk}`);
    }
    expect(misfits).toEqual([]);
  });

  test('no API key and no signed request reached the stand-in: its public market endpoints only', async () => {
    expect(liveClientHadCredentials).toBe(false);
    const traffic = await standInTraffic(standIn.baseUrl);
    expect(traffic.credentialed).toBe(0);
    expect(traffic.routes.size).toBeGreaterThan(0);
    expect([...traffic.routes].filter((route) => !PUBLIC_ROUTES.has(route) && route !== 'metrics')).toEqual([]);
  });

  test('/status of the daemon says paper on live market, with the feed lag of each channel and the books in force; /metrics has the lag', () => {
    expect(status?.source).toBe('paper on live market');
    expect(status?.baseUrl).toBe(standIn.baseUrl);
    expect(status?.books).toEqual({ 'BTC-SWAP-USDT': 'live', 'ETH-SWAP-USDT': 'live' });
    const depth = status?.channels.find((c) => c.symbol === 'BTC-SWAP-USDT' && c.channel === 'depth');
    expect(depth?.polls).toBeGreaterThan(100);
    expect(depth?.lagMs).toBeLessThanOrEqual(5000);
    for (const channel of ['depth', 'trades', 'markPrice', 'index', 'fundingRate']) {
      expect({ channel, lag: metric(metrics, 'stratd_paper_feed_lag_seconds', { symbol: 'ETH-SWAP-USDT', channel }) }).toEqual({ channel, lag: expect.any(Number) });
    }
    expect(metric(metrics, 'stratd_paper_feed_book_live', { symbol: 'BTC-SWAP-USDT' })).toBe(1);
  });
});
