import type { Command } from 'commander';
import type { ParityCommandDeps, ParityFlags } from './parity.js';
import { DEFAULT_PARITY_TOLERANCE_MS } from './parity-flags.js';

export type { ParityCommandDeps } from './parity.js';

/**
 * `stratd parity --config FILE [--duration D] [--out DIR] [--latency-ms N] [--tolerance-ms N] [--no-cache]`: exit 0
 * when the paper run and the backtest of its recording made the same fills, 1 (with the first
 * divergences listed) otherwise or when a side could not run, 2 for a mistake in the flags or config.
 */
export function registerParityCommand(program: Command, deps: ParityCommandDeps): Command {
  return program
    .command('parity')
    .description('trade the strategies in paper mode against the simulator while recording, backtest the recording, and compare the fills')
    .option('--config <file>', 'paper config whose strategies run (default config/default.yml)')
    .option('--duration <d>', 'how long the paper side trades (e.g. 5m)', '2m')
    .option('--out <dir>', 'working directory: the recording, the paper state, report.html and each side\'s fills CSV', 'parity-out')
    .option('--latency-ms <n>', "network latency each way, on both sides: the paper simulator's latency fault and the backtest's model (default: the simulator config's)")
    .option('--tolerance-ms <n>', `how far apart in time matching fills may be (default ${DEFAULT_PARITY_TOLERANCE_MS})`)
    .option('--log-level <level>', 'daemon, kernel and strategy logs on standard error', 'warn')
    .option('--no-cache', "backtest the recording as JSONL only: neither write nor read its prepared (Arrow) form")
    .action(async (flags: ParityFlags) => {
      const { parityAction } = await import('./parity.js');
      await parityAction(flags, deps);
    });
}

