import type { Command } from 'commander';
import type { CheckFlags, CheckStrategyDeps } from './check-strategy-action.js';

export type { CheckStrategyDeps } from './check-strategy-action.js';

/**
 * `stratd check-strategy --config FILE --data FILE... [--strategy ID]`: lookahead analysis (runs on the
 * recording cut at `--cuts` points compared with the full run) and warm-up analysis (indicator drift for
 * each `--warmup` length against the longest); the report on standard output and in --out as
 * strategy-check.txt and strategy-check.json. Exits 1 when lookahead was found.
 */
export function registerCheckStrategyCommand(program: Command, deps: CheckStrategyDeps): Command {
  return program
    .command('check-strategy')
    .description('look for lookahead (signals or indicators that change when the future is cut off) and measure how much warm-up the indicators need')
    .requiredOption('--data <file...>', 'market-stream recordings (.jsonl or .jsonl.gz), merged in time order')
    .option('--config <file>', 'daemon config whose strategies are checked (default config/default.yml)')
    .option('--strategy <id>', 'check this strategy instance only (its id in the config)')
    .option('--cuts <n>', 'lookahead: cut points spread over the recording', '10')
    .option('--warmup <lengths>', 'warm-up lengths to compare, comma-separated durations (0, 15m, 1h…); the longest is the reference', '0,15m,30m,1h,2h')
    .option('--tolerance <percent>', 'warm-up: largest relative indicator drift accepted, in percent', '0.1')
    .option('--no-lookahead', 'skip the lookahead analysis')
    .option('--no-warmup-check', 'skip the warm-up analysis')
    .option('--out <dir>', 'where strategy-check.txt and strategy-check.json are written', 'check-out')
    .option('--latency-ms <n>', 'latency of orders and replies, each way (default 50)')
    .option('--log-level <level>', 'kernel and strategy logs on standard error', 'warn')
    .action(async (flags: CheckFlags) => {
      const { checkStrategyAction } = await import('./check-strategy-action.js');
      await checkStrategyAction(flags, deps);
    });
}
