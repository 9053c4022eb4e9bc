import { resolve } from 'node:path';
import { runMonteCarlo } from '../../../analysis/monte-carlo/run-monte-carlo.js';
import { scenarioItems } from '../../../analysis/monte-carlo/scenario-items.js';
import { MONTE_CARLO_KIND, monteCarloConfigHash, scenarioWork, shardSelect } from '../../../analysis/monte-carlo/shard.js';
import { parseShardSpec, planShard, recordingsHash, toJsonValue } from '../../../sweep/shard/index.js';
import { ConfigError } from '../../../settings/config-error.js';
import { workersFlag } from '../sweep-flags.js';
import type { MonteCarloSettings } from '../monte-carlo-shard/prepare.js';
import { prepareMonteCarlo } from '../monte-carlo-shard/prepare.js';
import { writeMonteCarloRun, writeScenarioShard } from '../monte-carlo-shard/output.js';
import { stratdVersion } from '../sweep-shard/stratd-version.js';
import type { CommandIo } from '../command-io.js';

/** Standard output: the distributions and the files written. Standard error: progress lines and failures. */
export interface MonteCarloCommandDeps extends CommandIo {
  /** The simulator YAML whose trader account a live config backtests with (the packaged config/sim.yml). */
  readonly defaultSimConfig?: string;
}

export interface MonteCarloFlags {
  readonly config?: string;
  readonly data?: string[];
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
  readonly shard?: string;
  readonly shardMode: string;
}

/** The work of the command registered in command.ts, loaded only when it runs. */
export async function monteCarloAction(flags: MonteCarloFlags, deps: MonteCarloCommandDeps): Promise<void> {
  if (flags.data === undefined) throw new ConfigError("required option '--data <file...>' not specified", { path: '--data' });
  const shard = flags.shard === undefined ? undefined : parseShardSpec(flags.shard, flags.shardMode);
  if (shard?.ok === false) throw shard.error;
  const workers = workersFlag(flags.workers);
  const settings: MonteCarloSettings = {
    data: flags.data,
    recordings: flags.data.map((file) => resolve(file)),
    config: flags.config === undefined ? null : resolve(flags.config),
    from: flags.from ?? null,
    to: flags.to ?? null,
    scenarios: flags.scenarios,
    seed: flags.seed,
    method: flags.method,
    trades: flags.trades,
    block: flags.block,
    stride: flags.stride,
    ruinDrawdown: flags.ruinDrawdown,
    latencyMs: flags.latencyMs ?? null,
  };
  const prepared = await prepareMonteCarlo(settings, deps, flags.logLevel);
  if (!prepared.ok) {
    deps.err(`stratd montecarlo: ${prepared.error}\n`);
    deps.setExitCode(1);
    return;
  }
  const { options, job, backtest, recording, logger } = prepared.value;
  const plan =
    shard === undefined
      ? undefined
      : planShard(scenarioWork(scenarioItems(options.methods, options.scenarios)), shard.value, {
          kind: MONTE_CARLO_KIND,
          stratdVersion: stratdVersion(),
          recordingHash: await recordingsHash(job.recordings),
          configHash: monteCarloConfigHash(job, options),
          context: toJsonValue(settings),
        });
  const run = await runMonteCarlo({ backtest, recording, job }, {
    ...options,
    workers,
    logger,
    ...(shard === undefined ? {} : { select: shardSelect(shard.value) }),
    onProgress: (done, total) => deps.err(`montecarlo: ${done}/${total} scenarios\n`),
  });
  if (!run.ok) {
    deps.err(`stratd montecarlo: ${run.error}\n`);
    deps.setExitCode(1);
    return;
  }
  deps.out(plan === undefined ? writeMonteCarloRun(flags.out, prepared.value, run.value) : writeScenarioShard(flags.out, plan, run.value));
}
