import { mkdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { runParity } from '../../src/app/commands/parity.js';
import type { ParityOutcome } from '../../src/app/commands/parity.js';
import type { Daemon } from '../../src/app/daemon/daemon.js';
import { resolveStrategies } from '../../src/app/daemon/strategies.js';
import { prepareRun } from '../../src/app/commands/run.js';
import { runBacktest } from '../../src/backtest/runner.js';
import type { PreparedCacheEvent, PreparedCacheOptions } from '../../src/recording/prepared/index.js';
import { formatParityReport } from '../../src/parity/compare.js';
import { silentLogger } from '../../src/core/logger.js';
import { VirtualClock } from '../../src/core/virtual-time.js';
import { T0 } from '../sim/e2e/sim-harness.js';
import { NEVER, SIM_YML, defaultYaml, writeConfig } from '../app/daemon/daemon-harness.js';
import { runSettled } from '../app/daemon/virtual-steps.js';
import type { ActivityProbe } from '../app/daemon/virtual-steps.js';
import { tempDir } from './backtest-support.js';
import { launchBrowser, withPage } from '../support/browser.js';
import type { PriceChart } from '../support/report-page.js';
import { chartsOf, MARKER_COLORS, painted, pixelsOf } from '../support/report-page.js';

/**
 * `stratd parity` on a short run of each example strategy (the two of config/default.yml, and each
 * config of the strategy library): the paper daemon trades the embedded simulator over loopback in
 * virtual time (zero network latency, every reply at the instant of its request), the engine's market
 * stream and the daemon's view of the market are captured, the recording is backtested with that
 * view, and the fills and order placements compared — exactly, to the millisecond.
 */
const tmp = tempDir();
afterAll(() => tmp.remove());

const JOBS_NEVER = `jobs: { listenKeyKeepalive: "${NEVER}", exchangeInfoRefresh: "${NEVER}", reconcile: "${NEVER}", dailyReset: "${NEVER}", catalogSync: "${NEVER}" }\n`;

/** config/default.yml with one of its two strategies. */
const DEFAULT_OTHER_BLOCK: Readonly<Record<string, RegExp>> = {
  'quoter-btc': /  - id: breakout-eth[\s\S]*?risk: \{[^\n]*\}\n/,
  'breakout-eth': /  - id: quoter-btc[\s\S]*?risk: \{[^\n]*\}\n/,
};

function defaultConfigFor(dir: string, keep: string): string {
  const other = DEFAULT_OTHER_BLOCK[keep];
  if (other === undefined) throw new Error(`default.yml has no ${keep}`);
  // Jobs run on the wall clock (node-cron): none may fire during the test.
  const text = defaultYaml(join(dir, 'state'))
    .replace(other, '')
    .replace(/^jobs:[\s\S]*?catalogSync: .*\n/m, JOBS_NEVER);
  return writeConfig(dir, 'parity.yml', text);
}

/** An example config of the strategy library, with what a test must change. */
function libraryConfigFor(dir: string, file: string): string {
  let text = readFileSync(join(process.cwd(), 'config', 'strategies', file), 'utf8');
  const replace = (from: RegExp, to: string): void => {
    if (!from.test(text)) throw new Error(`config/strategies/${file} no longer has ${String(from)}`);
    text = text.replace(from, to);
  };
  replace(/^stateDir: .*$/m, `stateDir: ${join(dir, 'state')}`);
  replace(/^(\s+)config: \.\.\/sim\.yml.*$/m, `$1config: ${SIM_YML}`);
  replace(/^health: .*$/m, 'health: { host: 127.0.0.1, port: 0 }');
  replace(/^log: .*$/m, 'log: { level: silent }');
  replace(/^jobs:.*\n(?:[ \t]+.*\n)+/m, JOBS_NEVER);
  return writeConfig(dir, 'parity.yml', text);
}

/** The daemon's unanswered requests, and a count of everything its kernel publishes and the simulator's account events (each one a stream frame on its way). */
function probeOf(daemon: Daemon): ActivityProbe {
  let count = 0;
  daemon.kernel.events$.subscribe(() => count++);
  daemon.venue.sim?.engine.onAccountEvent(() => count++);
  // The embedded simulator shares the daemon's event loop: loop turns, not timer pauses, let its replies through.
  return { inFlight: () => daemon.venue.client.rest.inFlight, activity: () => count, inProcess: true };
}

async function parity(configFile: string, dir: string, minutes: number, cache?: PreparedCacheOptions): Promise<ParityOutcome & { readonly configFile: string }> {
  const prepared = await prepareRun({ config: configFile }, {});
  if (!prepared.ok) throw prepared.error;
  const { config } = prepared.value;
  const clock = new VirtualClock(T0);
  const outcome = await runParity({
    config,
    strategies: () => resolveStrategies(config),
    time: clock,
    logger: silentLogger,
    dir: join(dir, 'parity'),
    wait: (daemon) => runSettled(clock, minutes * 60_000, probeOf(daemon)),
    toleranceMs: 0,
    env: {},
    ...(cache === undefined ? {} : { prepared: cache }),
  });
  if (!outcome.ok) throw outcome.error;
  return { ...outcome.value, configFile };
}

interface Case {
  readonly name: string;
  readonly config: (dir: string) => string;
  readonly minutes: number;
  /** Fills the paper run must have made for the comparison to mean something (0: orders only). */
  readonly minFills: number;
  /** Orders it must have placed (0 for a strategy that waits longer than a short run: trend's slow EMA, funding-carry's funding window; those two run 2 minutes, as idle as 3). */
  readonly minOrders: number;
}

/** default.yml's quoter-btc: one run serves its case, the determinism test and the report test below. */
const QUOTER: Case = { name: 'default.yml quoter-btc', config: (dir) => defaultConfigFor(dir, 'quoter-btc'), minutes: 3, minFills: 5, minOrders: 5 };

const CASES: readonly Case[] = [
  { name: 'default.yml breakout-eth', config: (dir) => defaultConfigFor(dir, 'breakout-eth'), minutes: 3, minFills: 1, minOrders: 1 },
  { name: 'strategies/bracket.yml', config: (dir) => libraryConfigFor(dir, 'bracket.yml'), minutes: 3, minFills: 1, minOrders: 1 },
  { name: 'strategies/funding-carry.yml', config: (dir) => libraryConfigFor(dir, 'funding-carry.yml'), minutes: 2, minFills: 0, minOrders: 0 },
  { name: 'strategies/grid.yml', config: (dir) => libraryConfigFor(dir, 'grid.yml'), minutes: 3, minFills: 0, minOrders: 1 },
  { name: 'strategies/market-maker.yml', config: (dir) => libraryConfigFor(dir, 'market-maker.yml'), minutes: 3, minFills: 1, minOrders: 1 },
  { name: 'strategies/trend.yml', config: (dir) => libraryConfigFor(dir, 'trend.yml'), minutes: 2, minFills: 0, minOrders: 0 },
];

/** What every case's parity run must show: identical, enough activity, the counts of each side, the warm-up left out. */
function expectParity({ minFills, minOrders }: Case, outcome: ParityOutcome): void {
  const { report, recording, backtest } = outcome;
  const text = formatParityReport(report);
  // The whole report on failure: which fill or order diverged first.
  expect({ identical: report.identical, text }).toEqual({ identical: true, text: expect.stringMatching(/^parity: identical/) });
  expect(report.fills.live).toBeGreaterThanOrEqual(minFills);
  expect(report.orders.live).toBeGreaterThanOrEqual(minOrders);
  expect(report.fills.live).toBe(recording.fills.length);
  expect(report.fills.backtest).toBe(backtest.fills.length);
  // The recording holds the simulator's warm-up before the daemon started: only what follows is replayed to the strategies.
  expect(backtest.summary.events).toBeGreaterThan(0);
  expect(backtest.summary.events).toBeLessThan(recording.events);
  expect(outcome.view.length).toBeGreaterThan(0);
}

describe('stratd parity: a short paper run of each example strategy and the backtest of its recording agree', () => {
  it.each(CASES)('$name', async (c) => {
    const dir = tmp.path(c.name.replace(/[^a-z0-9]+/gi, '-'));
    mkdirSync(dir);
    expectParity(c, await parity(c.config(dir), dir, c.minutes));
  }, 120_000);

  describe(QUOTER.name, () => {
    const dir = tmp.path('quoter-btc');
    /** The prepared-cache steps of the one parity run, and of the backtests that follow it. */
    const cacheSteps: PreparedCacheEvent[] = [];
    const cache: PreparedCacheOptions = { onEvent: (event) => cacheSteps.push(event) };
    let configFile: string;
    let outcome: ParityOutcome & { readonly configFile: string };
    let stepsOfRun: readonly string[];

    beforeAll(async () => {
      mkdirSync(dir);
      configFile = QUOTER.config(dir);
      outcome = await parity(configFile, dir, QUOTER.minutes, cache);
      stepsOfRun = cacheSteps.map((e) => e.type);
    }, 120_000);

    it('agrees', () => {
      expectParity(QUOTER, outcome);
    });

    it('the backtest of a parity recording is deterministic: the same recording and view give the same fills again, from its prepared form too', async () => {
      // Parity's backtest wrote the recording's prepared form and replayed it: the fills still agree.
      expect(stepsOfRun).toEqual(['written']);
      expect(outcome.report.identical).toBe(true);
      const prepared = await prepareRun({ config: configFile }, {});
      if (!prepared.ok) throw prepared.error;
      const { config } = prepared.value;
      // The parity run's own backtest, repeated: from the recording, then from its prepared form.
      const sameRun = {
        risk: config.risk,
        recordings: [outcome.recording.path],
        account: outcome.account,
        orphans: config.orphans,
        latency: outcome.backtest.summary.latency,
        from: outcome.from,
        to: outcome.recording.endTime,
        marketView: outcome.view,
      };
      const again = await runBacktest({ ...sameRun, strategies: prepared.value.strategies });
      if (!again.ok) throw again.error;
      expect(outcome.report.fills.live).toBeGreaterThan(0);
      expect(again.value.summary.fillsSha256).toBe(outcome.backtest.summary.fillsSha256);
      const fresh = await resolveStrategies(config);
      if (!fresh.ok) throw fresh.error;
      const fromCache = await runBacktest({ ...sameRun, strategies: fresh.value, prepared: cache });
      if (!fromCache.ok) throw fromCache.error;
      expect(cacheSteps.map((e) => e.type)).toEqual(['written', 'read']);
      expect(fromCache.value.summary.fillsSha256).toBe(outcome.backtest.summary.fillsSha256);
    }, 120_000);

    it("writes report.html: both runs' fills on the recording's candles, drawn in a headless browser, and each side's fills CSV", async () => {
      expect(outcome.reportFile).toBe(join(dir, 'parity', 'report.html'));
      const paper = outcome.recording.fills;
      expect(paper.length).toBeGreaterThan(0);
      expect(readFileSync(join(dir, 'parity', 'paper-fills.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(paper.length + 1);
      expect(readFileSync(join(dir, 'parity', 'backtest-fills.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(outcome.backtest.fills.length + 1);
      const browser = await launchBrowser();
      try {
        await withPage(browser, pathToFileURL(outcome.reportFile).href, '[data-charts-drawn]', async ({ page, requests, errors }) => {
          const prices = (await chartsOf(page, 'all')).filter((c): c is PriceChart => c.kind === 'price');
          const btc = prices.find((c) => c.symbol === 'BTC-SWAP-USDT')!;
          expect(btc.candles).toBeGreaterThanOrEqual(2);
          expect(btc.buys + btc.sells).toBe(paper.length + outcome.backtest.fills.length);
          expect(btc.markers).toBe(paper.length + outcome.backtest.fills.length);
          // The backtest's markers are drawn in their own colours over the paper run's.
          const colours = await painted(
            () => Promise.all([MARKER_COLORS.buy, MARKER_COLORS.sell, MARKER_COLORS.buy2, MARKER_COLORS.sell2].map((c) => pixelsOf(page, 'BTC-SWAP-USDT', c))),
            (counts) => counts.reduce((a, b) => a + b, 0) > 40 && counts[2]! + counts[3]! > 0,
          );
          expect(colours.reduce((a, b) => a + b, 0)).toBeGreaterThan(40);
          expect(colours[2]! + colours[3]!).toBeGreaterThan(0);
          expect(errors).toEqual([]);
          expect(requests).toEqual([pathToFileURL(outcome.reportFile).href]);
          mkdirSync(join(process.cwd(), '.ci', 'artifacts'), { recursive: true });
          await page.screenshot({ path: join(process.cwd(), '.ci', 'artifacts', 'report-parity.png') });
        });
      } finally {
        await browser.close();
      }
    }, 120_000);
  });
});
