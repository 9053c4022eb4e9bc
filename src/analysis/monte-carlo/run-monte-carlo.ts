import { dec } from '../../core/decimal.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { BacktestResult } from '../../backtest/types.js';
import type { ParsedRecording } from '../../recording/parsed-recording.js';
import type { SweepJob } from '../../sweep/types.js';
import type { BlockOptions } from './block-bootstrap.js';
import { BlockBootstrap } from './block-bootstrap.js';
import { closedTrades } from './closed-trades.js';
import type { MonteCarloSetup, MonteCarloSummary } from './summary.js';
import { monteCarloSummary } from './summary.js';
import { runBootstrapScenarios } from './scenario-pool.js';
import type { MonteCarloMethod, ScenarioItem } from './scenario-items.js';
import { scenarioItems, scenarioPrng } from './scenario-items.js';
import type { ScenarioOutcome } from './scenario-outcome.js';
import type { ShuffleBase, TradeSampling } from './trade-shuffle.js';
import { shuffledPnl, shuffleFigures } from './trade-shuffle.js';

export interface MonteCarloOptions {
  readonly seed: number;
  /** Scenarios per method. */
  readonly scenarios: number;
  readonly methods: readonly MonteCarloMethod[];
  readonly sampling: TradeSampling;
  readonly blocks: BlockOptions;
  readonly ruinDrawdown: number;
  /** Worker threads for the bootstrap scenarios (0: this thread). */
  readonly workers: number;
  /**
   * The scenarios to run, a slice of `scenarioItems(methods, scenarios)` (e.g. one shard's); default
   * all of them. Each runs with the numbers it has in the whole run.
   */
  readonly select?: (items: readonly ScenarioItem[]) => readonly ScenarioItem[];
  readonly logger?: Logger;
  readonly onProgress?: (done: number, total: number) => void;
}

/** What the backtest being varied gives the Monte Carlo run. */
export interface MonteCarloInput {
  /** The backtest of `job` on `recording`. */
  readonly backtest: BacktestResult;
  readonly recording: ParsedRecording;
  /** Its strategies, risk limits, account and latency, as a sweep's job (its axes are ignored). */
  readonly job: SweepJob;
}

export interface MonteCarloRun {
  readonly summary: MonteCarloSummary;
  readonly outcomes: readonly ScenarioOutcome[];
}

/**
 * Monte Carlo of a backtest: trade shuffling (on this thread: arithmetic over the closed trades) and
 * block-bootstrapped market paths (each a backtest, on worker threads), summarized per method.
 */
export async function runMonteCarlo(input: MonteCarloInput, options: MonteCarloOptions): Promise<Result<MonteCarloRun, string>> {
  const { summary } = input.backtest;
  const initialEquity = summary.account.initialEquity;
  const all = scenarioItems(options.methods, options.scenarios);
  const items = options.select?.(all) ?? all;
  const base: ShuffleBase = {
    trades: closedTrades(input.backtest.fills),
    initialEquity: dec(initialEquity),
    samples: input.backtest.equity,
    intervalMs: summary.equityIntervalMs,
  };
  let bootstrapShape: MonteCarloSetup['bootstrap'];
  if (options.methods.includes('bootstrap')) {
    const bootstrap = BlockBootstrap.of(input.recording, options.blocks);
    if (typeof bootstrap === 'string') return err(bootstrap);
    const { slots, starts } = bootstrap.shape;
    bootstrapShape = { blockMs: options.blocks.blockMs, strideMs: options.blocks.strideMs, blocksPerPath: slots, blockStarts: starts };
  }
  const setup: MonteCarloSetup = {
    seed: options.seed,
    scenarios: options.scenarios,
    methods: options.methods,
    ruinDrawdown: options.ruinDrawdown,
    initialEquity,
    backtest: { finalEquity: summary.total.finalEquity, maxDrawdown: summary.total.maxDrawdown, sharpe: summary.total.sharpe },
    ...(options.methods.includes('shuffle')
      ? { shuffle: { sampling: options.sampling, closedTrades: base.trades.length, asTraded: shuffleFigures(base, base.trades.map((t) => t.pnl)) } }
      : {}),
    ...(bootstrapShape === undefined ? {} : { bootstrap: bootstrapShape }),
  };
  const total = items.length;
  let done = 0;
  const progress = (): void => options.onProgress?.(++done, total);
  const outcomes: ScenarioOutcome[] = [];
  for (const item of items) {
    if (item.method !== 'shuffle') continue;
    const figures = shuffleFigures(base, shuffledPnl(base.trades, scenarioPrng(options.seed, item), options.sampling));
    outcomes.push({ item: item.item, method: 'shuffle', index: item.index, ...figures });
    progress();
  }
  const bootstrapItems = items.filter((i) => i.method === 'bootstrap');
  if (bootstrapItems.length > 0) {
    const job = { backtest: input.job, seed: options.seed, blocks: options.blocks, initialEquity };
    const ran = await runBootstrapScenarios(job, bootstrapItems, input.recording, {
      workers: options.workers,
      onProgress: progress,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
    if (!ran.ok) return ran;
    outcomes.push(...ran.value);
  }
  outcomes.sort((a, b) => a.item - b.item);
  return ok({ summary: monteCarloSummary(setup, outcomes), outcomes });
}
