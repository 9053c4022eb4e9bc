import type { Command } from 'commander';
import type { WalkForwardMergeDeps } from './merge-action.js';

export type { WalkForwardMergeDeps } from './merge-action.js';

/**
 * `stratd walkforward merge DIR... --out OUT [--workers N]`: the in-sample rows of the shard output
 * folders of one walk-forward (`stratd walkforward --shard I/N`) put together, the best combination
 * chosen per window and backtested on its out-of-sample part here (one backtest per window, on the
 * recordings and config the manifests name, which must still hash as the shards saw them); OUT gets
 * byte for byte what the walk-forward run whole writes. Shards that do not fit together are refused (exit 2).
 */
export function registerWalkForwardMergeCommand(walkforward: Command, deps: WalkForwardMergeDeps): Command {
  return walkforward
    .command('merge')
    .description('combine the output folders of `stratd walkforward --shard I/N` and run the out-of-sample backtests: the outputs of one whole walk-forward')
    .argument('<dirs...>', 'shard output folders (each with manifest.json and items/)')
    .requiredOption('--out <dir>', 'output directory of the merged walk-forward')
    .option('--workers <n>', 'worker threads for the out-of-sample backtests (default: available parallelism − 1, at least 1; 0: this thread)')
    .action(async (dirs: string[], flags: { readonly out: string; readonly workers?: string }) => {
      const { walkForwardMergeAction } = await import('./merge-action.js');
      await walkForwardMergeAction(dirs, flags, deps);
    });
}
