import type { Command } from 'commander';
import { RANK_METRICS } from '../../../sweep/output.js';
import { DEFAULT_IN_SAMPLE_RATIO, DEFAULT_WINDOWS } from './window-flags.js';
import { registerWalkForwardMergeCommand } from './merge-command.js';
import type { WalkForwardCommandDeps, WalkForwardFlags } from './action.js';

export type { WalkForwardCommandDeps } from './action.js';

/**
 * `stratd walkforward --data FILE... --grid GRID.yml [--windows N --in-sample-ratio R | --in-sample DUR --out-of-sample DUR] [--anchored]`:
 * per window, the grid's best combination by `--rank` on the in-sample part, backtested on the
 * out-of-sample part after it (the sweep's runner and worker threads); writes walkforward.json,
 * walkforward.csv, walkforward-equity.csv (the stitched out-of-sample curve), walkforward-in-sample.csv
 * and report.html to --out. Mistakes in the arguments, config, grid or windows exit 2; a failed backtest exits 1.
 * With `--shard I/N` it runs only shard I of N of the in-sample backtests and writes their rows and a
 * manifest into --out instead, for `stratd walkforward merge` (which runs the out-of-sample part).
 */
export function registerWalkForwardCommand(program: Command, deps: WalkForwardCommandDeps): Command {
  const walkforward = program
    .command('walkforward')
    .description('walk-forward: choose the grid’s best combination on each in-sample window, backtest it on the out-of-sample part after it')
    // `walkforward merge … --out` has its own --out: options of `walkforward` only before a subcommand.
    .enablePositionalOptions()
    .option('--data <file...>', 'market-stream recordings (.jsonl or .jsonl.gz), merged in time order (required)')
    .option('--grid <file>', 'GRID.yml, as for `stratd sweep`: strategies.<id>.params/.risk.<key>: [values…] (required)')
    .option('--config <file>', 'daemon config whose strategies and risk limits run (default config/default.yml)')
    .option('--windows <n>', `number of windows (default ${DEFAULT_WINDOWS}); the out-of-sample parts cover the end of the recording back to back`)
    .option('--in-sample-ratio <r>', `in-sample length over out-of-sample length, with --windows (default ${DEFAULT_IN_SAMPLE_RATIO})`)
    .option('--in-sample <duration>', 'in-sample length (e.g. 2h; with --out-of-sample, instead of --windows)')
    .option('--out-of-sample <duration>', 'out-of-sample length and step between windows (e.g. 30m)')
    .option('--anchored', 'every in-sample part starts at the start of the recording (default: rolling, of fixed length)', false)
    .option('--rank <metric>', `metric the best combination is chosen by: ${RANK_METRICS.join(', ')}`, 'netPnl')
    .option('--from <time>', 'start of the walk-forward: ISO time or epoch ms (default the first event)')
    .option('--to <time>', 'end, inclusive: ISO time or epoch ms (default the last event)')
    .option('--workers <n>', 'worker threads (default: available parallelism − 1, at least 1; 0: this thread)')
    .option('--out <dir>', 'output directory', 'walkforward-out')
    .option('--latency-ms <n>', 'latency of orders and replies, each way (default 50)')
    .option('--no-cache', 'read the recordings as JSONL only: neither read nor write their prepared (Arrow) form')
    .option('--shard <I/N>', 'run shard I of N (I from 0, as JOB_COMPLETION_INDEX) of the in-sample backtests; --out gets their rows and manifest.json for `stratd walkforward merge`')
    .option('--shard-mode <mode>', 'how in-sample backtests (window × combination) are dealt to shards: round-robin or contiguous', 'round-robin')
    .action(async (flags: WalkForwardFlags) => {
      const { walkForwardAction } = await import('./action.js');
      await walkForwardAction(flags, deps);
    });
  registerWalkForwardMergeCommand(walkforward, deps);
  return walkforward;
}
