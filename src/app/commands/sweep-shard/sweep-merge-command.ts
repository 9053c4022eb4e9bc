import type { Command } from 'commander';
import type { SweepMergeDeps } from './sweep-merge-action.js';

export type { SweepMergeDeps } from './sweep-merge-action.js';

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
    .action(async (dirs: string[], flags: { readonly out: string }) => {
      const { sweepMergeAction } = await import('./sweep-merge-action.js');
      sweepMergeAction(dirs, flags, deps);
    });
}
