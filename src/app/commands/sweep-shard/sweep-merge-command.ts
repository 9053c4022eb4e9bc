import type { Command } from 'commander';
import { heatmapAxesOf } from '../../../sweep/report.js';
import { mergeShards, SWEEP_KIND, sweepOfMerged, writeSweepOutputs } from '../../../sweep/shard/index.js';
import { ConfigError } from '../../../settings/config-error.js';
import { stratdVersion } from './stratd-version.js';

export interface SweepMergeDeps {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
}

/** Exit code of shards that cannot be merged (as a usage mistake: rerunning will not help). */
const EXIT_REFUSED = 2;

/**
 * `stratd sweep merge DIR... --out OUT`: the shard output folders of one sweep (`stratd sweep --shard
 * I/N`) combined into OUT/sweep.csv and OUT/report.html, byte for byte what the sweep run whole writes,
 * and the same ranked table printed. Folders of different recordings, configurations, grids, output
 * settings or stratd versions, an item in two folders or in none are refused with the reason (exit 2).
 */
export function registerSweepMergeCommand(sweep: Command, deps: SweepMergeDeps): Command {
  return sweep
    .command('merge')
    .description('combine the output folders of `stratd sweep --shard I/N` into the outputs of one whole sweep')
    .argument('<dirs...>', 'shard output folders (each with manifest.json and items/)')
    .requiredOption('--out <dir>', 'output directory of the merged sweep.csv and report.html')
    .action((dirs: string[], flags: { readonly out: string }) => {
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
    });
}
