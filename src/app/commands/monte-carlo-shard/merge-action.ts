import { runMonteCarlo } from '../../../analysis/monte-carlo/run-monte-carlo.js';
import { scenarioItems } from '../../../analysis/monte-carlo/scenario-items.js';
import { MONTE_CARLO_KIND, monteCarloConfigHash, outcomesOfMerged, scenarioWork } from '../../../analysis/monte-carlo/shard.js';
import { monteCarloSummary } from '../../../analysis/monte-carlo/summary.js';
import { mergeShards, recordingsHash } from '../../../sweep/shard/index.js';
import { stratdVersion } from '../sweep-shard/stratd-version.js';
import type { MonteCarloPrepareDeps } from './prepare.js';
import { monteCarloSettingsSchema, prepareMonteCarlo } from './prepare.js';
import { writeMonteCarloRun } from './output.js';
import type { CommandIo } from '../command-io.js';

export type MonteCarloMergeDeps = MonteCarloPrepareDeps & Pick<CommandIo, 'out' | 'err' | 'setExitCode'>;

/** Exit code of shards that cannot be merged (as a usage mistake: rerunning will not help). */
const EXIT_REFUSED = 2;

/** The work of the command registered in merge-command.ts, loaded only when it runs. */
export async function monteCarloMergeAction(dirs: string[], flags: { readonly out: string; readonly logLevel: string }, deps: MonteCarloMergeDeps): Promise<void> {
  const refuse = (message: string): void => {
    deps.err(`stratd montecarlo merge: ${message}\n`);
    deps.setExitCode(EXIT_REFUSED);
  };
  const merged = mergeShards(dirs, { kind: MONTE_CARLO_KIND, stratdVersion: stratdVersion() });
  if (!merged.ok) return refuse(merged.error);
  const settings = monteCarloSettingsSchema.safeParse(merged.value.context);
  if (!settings.success) return refuse(`the shards' settings are not a Monte Carlo run's: ${settings.error.issues[0]?.path.join('.') ?? ''}: ${settings.error.issues[0]?.message ?? ''}`);
  const recordings = settings.data.recordings;
  if ((await recordingsHash(recordings)) !== merged.value.recordingHash) return refuse(`the recordings ${recordings.join(', ')} are not the bytes the shards ran on (changed or replaced since)`);
  const prepared = await prepareMonteCarlo(settings.data, deps, flags.logLevel);
  if (!prepared.ok) {
    deps.err(`stratd montecarlo merge: ${prepared.error}\n`);
    deps.setExitCode(1);
    return;
  }
  const { job, options } = prepared.value;
  if (monteCarloConfigHash(job, options) !== merged.value.configHash) return refuse('the config or strategy modules differ from what the shards ran (changed since)');
  const outcomes = outcomesOfMerged(merged.value, scenarioWork(scenarioItems(options.methods, options.scenarios)));
  if (!outcomes.ok) return refuse(outcomes.error);
  // No scenario runs here: the run gives the setup (the backtest's figures, the blocks' shape), the shards the outcomes.
  const setup = await runMonteCarlo({ backtest: prepared.value.backtest, recording: prepared.value.recording, job }, { ...options, workers: 0, select: () => [], logger: prepared.value.logger });
  if (!setup.ok) {
    deps.err(`stratd montecarlo merge: ${setup.error}\n`);
    deps.setExitCode(1);
    return;
  }
  const run = { summary: monteCarloSummary(setup.value.summary.setup, outcomes.value), outcomes: outcomes.value };
  deps.out(writeMonteCarloRun(flags.out, prepared.value, run));
}
