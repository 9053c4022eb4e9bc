import type { Command } from 'commander';
import { RANK_METRICS } from '../../sweep/output.js';
import type { SweepCommandDeps, SweepFlags } from './sweep-action.js';
import { registerSweepMergeCommand } from './sweep-shard/sweep-merge-command.js';

export type { SweepCommandDeps } from './sweep-action.js';

/**
 * `stratd sweep --config FILE --data FILE... --grid GRID.yml [--workers N] [--out DIR] [--rank METRIC] [--no-cache]`:
 * a backtest per combination of the grid's values, across worker threads; writes DIR/sweep.csv (one
 * row per combination, in grid order) and DIR/report.html (a heat map of the ranked metric over two
 * swept settings, `--heatmap A,B`, and the ranked table) and prints the rows ranked. Mistakes in the arguments, config or
 * grid exit 2; a failed backtest exits 1. With `--shard I/N` it runs only shard I of N of the
 * combinations and writes their rows and a manifest into DIR instead, for `stratd sweep merge`.
 */
export function registerSweepCommand(program: Command, deps: SweepCommandDeps): Command {
  const sweep = program
    .command('sweep')
    .description('backtest every combination of a grid of strategy params and risk limits, across worker threads')
    // `sweep merge … --out` has its own --out: options of `sweep` only before a subcommand.
    .enablePositionalOptions()
    .option('--data <file...>', 'market-stream recordings (.jsonl or .jsonl.gz), merged in time order (required)')
    .option('--grid <file>', 'GRID.yml: strategies.<id>.params/.risk.<key>: [values…] (required)')
    .option('--config <file>', 'daemon config whose strategies and risk limits run (default config/default.yml)')
    .option('--workers <n>', 'worker threads (default: available parallelism − 1, at least 1; 0: this thread)')
    .option('--out <dir>', 'output directory', 'sweep-out')
    .option('--rank <metric>', `ranking of the printed table: ${RANK_METRICS.join(', ')}`, 'netPnl')
    .option('--heatmap <a,b>', "report.html's heat map: two swept settings (strategy.section.key, or a key swept once), default the first two")
    .option('--latency-ms <n>', 'latency of orders and replies, each way (default 50)')
    .option('--no-cache', 'read the recordings as JSONL only: neither read nor write their prepared (Arrow) form')
    .option('--shard <I/N>', 'run shard I of N (I from 0, as JOB_COMPLETION_INDEX) of the combinations; --out gets its rows and manifest.json for `stratd sweep merge`')
    .option('--shard-mode <mode>', 'how combinations are dealt to shards: round-robin (combination k to shard k mod N) or contiguous (one run each)', 'round-robin')
    .option('--allow-gaps', 'run even though the recordings have gaps (missing market)')
    .action(async (flags: SweepFlags) => {
      const { sweepAction } = await import('./sweep-action.js');
      await sweepAction(flags, deps);
    });
  registerSweepMergeCommand(sweep, deps);
  return sweep;
}
