import type { Command } from 'commander';
import type { MonteCarloMergeDeps } from './merge-action.js';

export type { MonteCarloMergeDeps } from './merge-action.js';

/**
 * `stratd montecarlo merge DIR... --out OUT`: the scenario outcomes of the shard output folders of one
 * run (`stratd montecarlo --shard I/N`) put together and summarized; the backtest they vary is run once
 * more here (on the recordings and config the manifests name, which must still hash as the shards saw
 * them) for its files and report. OUT gets byte for byte what the run whole writes. Shards that do not
 * fit together are refused (exit 2).
 */
export function registerMonteCarloMergeCommand(montecarlo: Command, deps: MonteCarloMergeDeps): Command {
  return montecarlo
    .command('merge')
    .description('combine the output folders of `stratd montecarlo --shard I/N` into the outputs of one whole run')
    .argument('<dirs...>', 'shard output folders (each with manifest.json and items/)')
    .requiredOption('--out <dir>', 'output directory of the merged run')
    .option('--log-level <level>', 'kernel and strategy logs of the backtest on standard error', 'warn')
    .action(async (dirs: string[], flags: { readonly out: string; readonly logLevel: string }) => {
      const { monteCarloMergeAction } = await import('./merge-action.js');
      await monteCarloMergeAction(dirs, flags, deps);
    });
}
