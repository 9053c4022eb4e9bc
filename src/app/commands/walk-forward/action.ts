import { resolve } from 'node:path';
import type { Clock, Stopwatch } from '../../../core/clock.js';
import { parseShardSpec, planShard, recordingsHash, toJsonValue } from '../../../sweep/shard/index.js';
import { runInSample, runWalkForward } from '../../../sweep/walk-forward/run.js';
import { WALK_FORWARD_KIND, walkForwardConfigHash, walkForwardWork } from '../../../sweep/walk-forward/shard.js';
import { ConfigError } from '../../../settings/config-error.js';
import { stratdVersion } from '../sweep-shard/stratd-version.js';
import { workersFlag } from '../sweep-flags.js';
import type { WindowFlags } from './window-flags.js';
import { writeInSampleShard, writeWalkForwardOutputs } from './outputs.js';
import type { WalkForwardSettings } from './settings.js';
import { prepareWalkForward, progressOptions } from './settings.js';
import type { CommandIo } from '../command-io.js';

/** Standard output: the windows and the efficiency. Standard error: progress lines and failures. */
export interface WalkForwardCommandDeps extends CommandIo {
  /** Default: the wall clock (ETA only). */
  readonly wallClock?: Clock;
  readonly stopwatch?: Stopwatch;
  /** The simulator YAML whose trader account a live config backtests with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

export interface WalkForwardFlags extends WindowFlags {
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

/** The work of the command registered in command.ts, loaded only when it runs. */
export async function walkForwardAction(flags: WalkForwardFlags, deps: WalkForwardCommandDeps): Promise<void> {
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
}
