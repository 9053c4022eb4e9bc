import type { Result } from '../../../core/result.js';
import { err, ok } from '../../../core/result.js';
import type { MergedShards } from '../../../sweep/shard/index.js';
import { mergeShards, recordingsHash } from '../../../sweep/shard/index.js';
import type { SweepRow } from '../../../sweep/types.js';
import { completeWalkForward } from '../../../sweep/walk-forward/run.js';
import { inSampleRowsOfMerged, WALK_FORWARD_KIND, walkForwardConfigHash, walkForwardWork } from '../../../sweep/walk-forward/shard.js';
import { stratdVersion } from '../sweep-shard/stratd-version.js';
import { workersFlag } from '../sweep-flags.js';
import type { PreparedWalkForward, WalkForwardPrepareDeps } from './settings.js';
import { prepareWalkForward, progressOptions, walkForwardSettingsSchema } from './settings.js';
import { writeWalkForwardOutputs } from './outputs.js';
import type { CommandIo } from '../command-io.js';

export type WalkForwardMergeDeps = WalkForwardPrepareDeps & Pick<CommandIo, 'out' | 'setExitCode'>;

/** Exit code of shards that cannot be merged (as a usage mistake: rerunning will not help). */
const EXIT_REFUSED = 2;

/** The work of the command registered in merge-command.ts, loaded only when it runs. */
export async function walkForwardMergeAction(dirs: string[], flags: { readonly out: string; readonly workers?: string }, deps: WalkForwardMergeDeps): Promise<void> {
  const workers = workersFlag(flags.workers);
  const refuse = (message: string): void => {
    deps.err(`stratd walkforward merge: ${message}\n`);
    deps.setExitCode(EXIT_REFUSED);
  };
  const merged = mergeShards(dirs, { kind: WALK_FORWARD_KIND, stratdVersion: stratdVersion() });
  if (!merged.ok) return refuse(merged.error);
  const settings = walkForwardSettingsSchema.safeParse(merged.value.context);
  if (!settings.success) return refuse(`the shards' settings are not a walk-forward's: ${settings.error.issues[0]?.path.join('.') ?? ''}: ${settings.error.issues[0]?.message ?? ''}`);
  const recordings = settings.data.recordings;
  if ((await recordingsHash(recordings)) !== merged.value.recordingHash) return refuse(`the recordings ${recordings.join(', ')} are not the bytes the shards ran on (changed or replaced since)`);
  const run = await prepareWalkForward(settings.data, deps);
  if (!run.ok) {
    deps.err(`stratd walkforward merge: ${run.error}\n`);
    deps.setExitCode(1);
    return;
  }
  const rows = inSampleRowsOf(merged.value, run.value);
  if (!rows.ok) return refuse(rows.error);
  const { job, combinations, windows, rank, setup } = run.value;
  const result = await completeWalkForward(job, combinations, windows, rank, rows.value, progressOptions(workers, deps));
  if (!result.ok) {
    deps.err(`stratd walkforward merge: ${result.error}\n`);
    deps.setExitCode(1);
    return;
  }
  deps.out(writeWalkForwardOutputs(flags.out, result.value, setup));
}

/** The shards' rows, once the configuration read here is shown to be the one the shards ran. */
function inSampleRowsOf(merged: MergedShards, run: PreparedWalkForward): Result<SweepRow[], string> {
  const { job, windows, combinations, rank } = run;
  if (walkForwardConfigHash(job, windows, rank) !== merged.configHash) return err('the config, grid, strategy modules or windows differ from what the shards ran (changed since)');
  const rows = inSampleRowsOfMerged(merged, walkForwardWork(windows, combinations), job.axes.length);
  return rows.ok ? ok(rows.value) : rows;
}
