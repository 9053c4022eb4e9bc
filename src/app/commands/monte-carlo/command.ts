import type { Command } from 'commander';
import { registerMonteCarloMergeCommand } from '../monte-carlo-shard/merge-command.js';
import type { MonteCarloCommandDeps, MonteCarloFlags } from './action.js';

export type { MonteCarloCommandDeps } from './action.js';

/**
 * `stratd montecarlo --data FILE... [--config FILE] [--from T] [--to T] [--scenarios N] [--seed S] [--method shuffle,bootstrap]
 * [--block 15m] [--stride 1m] [--trades permute|resample] [--ruin-drawdown 0.3] [--workers N] [--out DIR]`:
 * the config's backtest on the recordings, then N scenarios per method (trade shuffling; block-bootstrapped
 * market paths, each a backtest on a worker thread); writes the backtest's files, its report.html with a
 * Monte Carlo section, montecarlo.json and montecarlo.csv. Mistakes exit 2, a failed run 1. With
 * `--shard I/N` it runs only shard I of N of the scenarios and writes their outcomes and a manifest into
 * --out instead, for `stratd montecarlo merge`.
 */
export function registerMonteCarloCommand(program: Command, deps: MonteCarloCommandDeps): Command {
  const montecarlo = program
    .command('montecarlo')
    .description('Monte Carlo of a backtest: shuffled trade order and block-bootstrapped market paths, percentiles of final equity, drawdown and Sharpe, probability of ruin')
    // `montecarlo merge … --out` has its own --out: options of `montecarlo` only before a subcommand.
    .enablePositionalOptions()
    .option('--data <file...>', 'market-stream recordings (.jsonl or .jsonl.gz), merged in time order (required)')
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
    .option('--shard <I/N>', 'run shard I of N (I from 0, as JOB_COMPLETION_INDEX) of the scenarios; --out gets their outcomes and manifest.json for `stratd montecarlo merge`')
    .option('--shard-mode <mode>', 'how scenarios are dealt to shards: round-robin or contiguous', 'round-robin')
    .action(async (flags: MonteCarloFlags) => {
      const { monteCarloAction } = await import('./action.js');
      await monteCarloAction(flags, deps);
    });
  registerMonteCarloMergeCommand(montecarlo, deps);
  return montecarlo;
}
