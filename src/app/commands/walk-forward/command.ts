import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Clock, Stopwatch } from '../../../core/clock.js';
import { RANK_METRICS } from '../../../sweep/output.js';
import { parseShardSpec, planShard, recordingsHash, toJsonValue } from '../../../sweep/shard/index.js';
import { runInSample, runWalkForward } from '../../../sweep/walk-forward/run.js';
import { WALK_FORWARD_KIND, walkForwardConfigHash, walkForwardWork } from '../../../sweep/walk-forward/shard.js';
import { ConfigError } from '../../../settings/config-error.js';
import type { Environment } from '../../../settings/secrets.js';
import { stratdVersion } from '../sweep-shard/stratd-version.js';
import { workersFlag } from '../sweep.js';
import type { WindowFlags } from './window-flags.js';
import { DEFAULT_IN_SAMPLE_RATIO, DEFAULT_WINDOWS } from './window-flags.js';
import { registerWalkForwardMergeCommand } from './merge-command.js';
import { writeInSampleShard, writeWalkForwardOutputs } from './outputs.js';
import type { WalkForwardSettings } from './settings.js';
import { prepareWalkForward, progressOptions } from './settings.js';

export interface WalkForwardCommandDeps {
  readonly env: Environment;
  /** Standard output: the windows and the efficiency. */
  readonly out: (text: string) => void;
  /** Standard error: progress lines and failures. */
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
  /** Default: the wall clock (ETA only). */
  readonly wallClock?: Clock;
  readonly stopwatch?: Stopwatch;
  /** The simulator YAML whose trader account a live config backtests with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

interface WalkForwardFlags extends WindowFlags {
  readonly config?: string;
  readonly data?: string[];
  readonly grid?: string;
  readonly workers?: string;
  readonly out: string;
  readonly rank: string;
  readonly from?: string;
  readonly to?: string;
  readonly latencyMs?: string;
  readonly cache: boolean;
  readonly shard?: string;
  readonly shardMode: string;
}

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
      const { data, grid } = flags;
      if (data === undefined) throw new ConfigError("required option '--data <file...>' not specified", { path: '--data' });
      if (grid === undefined) throw new ConfigError("required option '--grid <file>' not specified", { path: '--grid' });
      const shard = flags.shard === undefined ? undefined : parseShardSpec(flags.shard, flags.shardMode);
      if (shard?.ok === false) throw shard.error;
      const workers = workersFlag(flags.workers);
      const settings: WalkForwardSettings = {
        data,
        recordings: data.map((file) => resolve(file)),
        config: flags.config === undefined ? null : resolve(flags.config),
        grid: resolve(grid),
        windows: flags.windows ?? null,
        inSampleRatio: flags.inSampleRatio ?? null,
        inSample: flags.inSample ?? null,
        outOfSample: flags.outOfSample ?? null,
        anchored: flags.anchored,
        rank: flags.rank,
        from: flags.from ?? null,
        to: flags.to ?? null,
        latencyMs: flags.latencyMs ?? null,
        cache: flags.cache,
      };
      const run = await prepareWalkForward(settings, deps);
      if (!run.ok) {
        deps.err(`stratd walkforward: ${run.error}\n`);
        deps.setExitCode(1);
        return;
      }
      const { job, combinations, windows, rank } = run.value;
      const options = progressOptions(workers, deps);
      if (shard !== undefined) {
        const plan = planShard(walkForwardWork(windows, combinations), shard.value, {
          kind: WALK_FORWARD_KIND,
          stratdVersion: stratdVersion(),
          recordingHash: await recordingsHash(job.recordings),
          configHash: walkForwardConfigHash(job, windows, rank),
          context: toJsonValue(settings),
        });
        const rows = await runInSample(job, plan.items.map((item) => item.combination), options);
        if (!rows.ok) {
          deps.err(`stratd walkforward: ${rows.error}\n`);
          deps.setExitCode(1);
          return;
        }
        deps.out(writeInSampleShard(flags.out, plan, rows.value));
        return;
      }
      const result = await runWalkForward(job, combinations, windows, rank, options);
      if (!result.ok) {
        deps.err(`stratd walkforward: ${result.error}\n`);
        deps.setExitCode(1);
        return;
      }
      deps.out(writeWalkForwardOutputs(flags.out, result.value, run.value.setup));
    });
  registerWalkForwardMergeCommand(walkforward, deps);
  return walkforward;
}
