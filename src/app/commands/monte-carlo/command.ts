import { resolve } from 'node:path';
import type { Command } from 'commander';
import pino from 'pino';
import { levelGated } from '../../../core/level-gated-logger.js';
import { parseJsonlRecordings, runBacktest } from '../../../backtest/runner.js';
import { writeMonteCarloOutputs } from '../../../analysis/monte-carlo/outputs.js';
import type { MonteCarloSummary } from '../../../analysis/monte-carlo/summary.js';
import { runMonteCarlo } from '../../../analysis/monte-carlo/run-monte-carlo.js';
import { priceSeriesOfReplay } from '../../../report/prices.js';
import type { SweepJob } from '../../../sweep/types.js';
import { limitsToWire } from '../../../sweep/types.js';
import { ConfigError } from '../../../settings/config-error.js';
import type { Environment } from '../../../settings/secrets.js';
import { timeFlag } from '../backtest.js';
import { klineSeriesOf, latencyFlag, openingAccount } from '../backtest-flags.js';
import { createLogger } from '../../logging/logger.js';
import { prepareRun } from '../run.js';
import { moduleFileOf, paramsOf, workersFlag } from '../sweep.js';
import { blockDurationFlag, methodsFlag, ruinFlag, samplingFlag, scenariosFlag, seedFlag } from './flags.js';

export interface MonteCarloCommandDeps {
  readonly env: Environment;
  /** Standard output: the distributions and the files written. */
  readonly out: (text: string) => void;
  /** Standard error: progress lines and failures. */
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
  /** The simulator YAML whose trader account a live config backtests with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

interface MonteCarloFlags {
  readonly config?: string;
  readonly data: string[];
  readonly from?: string;
  readonly to?: string;
  readonly scenarios: string;
  readonly seed: string;
  readonly method: string;
  readonly trades: string;
  readonly block: string;
  readonly stride: string;
  readonly ruinDrawdown: string;
  readonly workers?: string;
  readonly out: string;
  readonly latencyMs?: string;
  readonly logLevel: string;
}

/**
 * `stratd montecarlo --data FILE... [--config FILE] [--from T] [--to T] [--scenarios N] [--seed S] [--method shuffle,bootstrap]
 * [--block 15m] [--stride 1m] [--trades permute|resample] [--ruin-drawdown 0.3] [--workers N] [--out DIR]`:
 * the config's backtest on the recordings, then N scenarios per method (trade shuffling; block-bootstrapped
 * market paths, each a backtest on a worker thread); writes the backtest's files, its report.html with a
 * Monte Carlo section, montecarlo.json and montecarlo.csv. Mistakes exit 2, a failed run 1.
 */
export function registerMonteCarloCommand(program: Command, deps: MonteCarloCommandDeps): Command {
  return program
    .command('montecarlo')
    .description('Monte Carlo of a backtest: shuffled trade order and block-bootstrapped market paths, percentiles of final equity, drawdown and Sharpe, probability of ruin')
    .requiredOption('--data <file...>', 'market-stream recordings (.jsonl or .jsonl.gz), merged in time order')
    .option('--config <file>', 'daemon config whose strategies and risk limits run (default config/default.yml)')
    .option('--from <time>', 'start: ISO time or epoch ms (earlier events only warm up the order book)')
    .option('--to <time>', 'end, inclusive: ISO time or epoch ms (later events are not read)')
    .option('--scenarios <n>', 'scenarios per method', '200')
    .option('--seed <n>', 'base seed: the same seed gives the same scenarios (scenario i of a method always draws the same numbers)', '1')
    .option('--method <list>', 'shuffle (trade order), bootstrap (market paths), or both', 'shuffle,bootstrap')
    .option('--trades <how>', 'shuffle: permute the closed trades, or resample them with replacement', 'permute')
    .option('--block <duration>', 'bootstrap: length of a block of the recording', '15m')
    .option('--stride <duration>', 'bootstrap: blocks start at any multiple of this', '1m')
    .option('--ruin-drawdown <fraction>', 'a scenario is ruined when its max drawdown reaches this (0.3 or 30%)', '0.5')
    .option('--workers <n>', 'worker threads for the bootstrap backtests (default: available parallelism − 1, at least 1; 0: this thread)')
    .option('--out <dir>', 'output directory', 'montecarlo-out')
    .option('--latency-ms <n>', 'latency of orders and replies, each way (default 50)')
    .option('--log-level <level>', 'kernel and strategy logs of the backtest on standard error', 'warn')
    .action(async (flags: MonteCarloFlags) => {
      const options = {
        seed: seedFlag(flags.seed),
        scenarios: scenariosFlag(flags.scenarios),
        methods: methodsFlag(flags.method),
        sampling: samplingFlag(flags.trades),
        blocks: { blockMs: blockDurationFlag('--block', flags.block), strideMs: blockDurationFlag('--stride', flags.stride) },
        ruinDrawdown: ruinFlag(flags.ruinDrawdown),
        workers: workersFlag(flags.workers),
      };
      const latency = flags.latencyMs === undefined ? undefined : latencyFlag(flags.latencyMs);
      const from = timeFlag('from', flags.from);
      const to = timeFlag('to', flags.to);
      const range = { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
      const prepared = await prepareRun(flags.config === undefined ? {} : { config: flags.config }, deps.env);
      if (!prepared.ok) throw prepared.error;
      const { config, strategies } = prepared.value;
      const account = openingAccount(config, deps.defaultSimConfig);
      if (!account.ok) throw account.error;
      const recordings = flags.data.map((file) => resolve(file));
      const recording = await parseJsonlRecordings(recordings, to);
      if (!recording.ok) throw new ConfigError(recording.error.message, { path: '--data' });
      const job: SweepJob = {
        strategies: strategies.map((s) => ({ id: s.id, symbols: s.symbols, moduleFile: moduleFileOf(config, s.id), params: paramsOf(config, s.id), limits: limitsToWire(s.limits) })),
        risk: limitsToWire(config.risk),
        recordings,
        account: account.value,
        orphans: config.orphans,
        klines: klineSeriesOf(config),
        axes: [],
        ...range,
        ...(latency === undefined ? {} : { latency: { orderLatencyMs: latency, ackLatencyMs: latency } }),
      };
      const logger = levelGated(createLogger({ level: flags.logLevel, pretty: false, destination: pino.destination(2) }), flags.logLevel);
      const backtest = await runBacktest({
        strategies,
        risk: config.risk,
        recordings,
        recording: recording.value,
        account: account.value,
        orphans: config.orphans,
        klines: klineSeriesOf(config),
        logger,
        ...range,
        ...(job.latency === undefined ? {} : { latency: job.latency }),
      });
      if (!backtest.ok) {
        if (backtest.error.code !== 'START_FAILED') throw new ConfigError(backtest.error.message, { path: '--data' });
        deps.err(`stratd montecarlo: ${backtest.error.message}\n`);
        deps.setExitCode(1);
        return;
      }
      const run = await runMonteCarlo({ backtest: backtest.value, recording: recording.value, job }, {
        ...options,
        logger,
        onProgress: (done, total) => deps.err(`montecarlo: ${done}/${total} scenarios\n`),
      });
      if (!run.ok) {
        deps.err(`stratd montecarlo: ${run.error}\n`);
        deps.setExitCode(1);
        return;
      }
      const written = writeMonteCarloOutputs(flags.out, backtest.value, run.value, priceSeriesOfReplay(recording.value, range));
      deps.out(`${summaryLines(run.value.summary)}${written.map((path) => `wrote ${path}\n`).join('')}`);
    });
}

/** The percentiles for a person; montecarlo.json holds everything. */
function summaryLines(summary: MonteCarloSummary): string {
  const { setup } = summary;
  const lines = [`backtest: final equity ${setup.backtest.finalEquity}, max drawdown ${setup.backtest.maxDrawdown}, Sharpe ${setup.backtest.sharpe ?? '-'}`];
  for (const m of summary.methods) {
    const p = (d: typeof m.finalEquity): string => `p5 ${d.percentiles.p5 ?? '-'} · p50 ${d.percentiles.p50 ?? '-'} · p95 ${d.percentiles.p95 ?? '-'}`;
    lines.push(
      `${m.method} (${m.scenarios} scenarios, seed ${setup.seed}):`,
      `  final equity  ${p(m.finalEquity)}`,
      `  max drawdown  ${p(m.maxDrawdown)}`,
      `  Sharpe        ${p(m.sharpe)}`,
      `  P(ruin at drawdown ≥ ${setup.ruinDrawdown}) ${m.ruinProbability ?? '-'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
