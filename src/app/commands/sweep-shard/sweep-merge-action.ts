import { heatmapAxesOf } from '../../../sweep/report.js';
import { mergeShards, SWEEP_KIND, sweepOfMerged, writeSweepOutputs } from '../../../sweep/shard/index.js';
import { ConfigError } from '../../../settings/config-error.js';
import { stratdVersion } from './stratd-version.js';
import type { CommandIo } from '../command-io.js';

export type SweepMergeDeps = Pick<CommandIo, 'out' | 'err' | 'setExitCode'>;

/** Exit code of shards that cannot be merged (as a usage mistake: rerunning will not help). */
const EXIT_REFUSED = 2;

/** `stratd sweep merge`'s work, loaded when the command runs (sweep-merge-command.ts registers it). */
export function sweepMergeAction(dirs: readonly string[], flags: { readonly out: string }, deps: SweepMergeDeps): void {
  const merged = mergeShards(dirs, { kind: SWEEP_KIND, stratdVersion: stratdVersion() });
  const sweep = merged.ok ? sweepOfMerged(merged.value) : merged;
  if (!sweep.ok) {
    deps.err(`stratd sweep merge: ${sweep.error}\n`);
    deps.setExitCode(EXIT_REFUSED);
    return;
  }
  const { context, rows } = sweep.value;
  const heat = heatmapAxesOf(context.axes, context.heatmap ?? undefined);
  if (!heat.ok) throw new ConfigError(`the shards' ${heat.error.reason}`);
  deps.out(writeSweepOutputs(flags.out, { axes: context.axes, rows, rank: context.rank, heat: heat.value, recordings: context.recordings }));
}
