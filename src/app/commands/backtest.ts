import type { Command } from 'commander';
import type { BacktestCommandDeps, BacktestFlags } from './backtest-action.js';

export type { BacktestCommandDeps } from './backtest-action.js';

/**
 * `stratd backtest --config FILE --data FILE... [--from T] [--to T] [--out DIR] [--latency-ms N] [--no-cache]`:
 * the config's strategies and risk limits replayed over recordings in virtual time against the
 * simulated exchange's engine; writes summary.json, fills.csv, orders.csv and equity.csv. A mistake in
 * the arguments, the config or a recording exits 2; a kernel that cannot start exits 1.
 */
export function registerBacktestCommand(program: Command, deps: BacktestCommandDeps): Command {
  return program
    .command('backtest')
    .description('replay recorded market streams through the strategies of a config, in virtual time, against the simulated exchange')
    .requiredOption('--data <file...>', 'market-stream recordings (.jsonl or .jsonl.gz), merged in time order')
    .option('--config <file>', 'daemon config whose strategies and risk limits run (default config/default.yml)')
    .option('--from <time>', 'start: ISO time or epoch ms (earlier events only warm up the order book)')
    .option('--to <time>', 'end, inclusive: ISO time or epoch ms')
    .option('--out <dir>', 'output directory', 'backtest-out')
    .option('--latency-ms <n>', 'latency of orders to the exchange and of its replies and events back, each way (default 50)')
    .option('--slippage-bps <n>', 'on recordings of bars (stratd download): market orders fill this far beyond the bar model\'s price, in basis points (default 2)')
    .option('--balance <asset=amount>', 'opening futures balance, e.g. USDT=100000 (repeatable; default: the config\'s simulator account)', (value: string, all: string[] = []) => [...all, value])
    .option('--log-level <level>', 'kernel and strategy logs on standard error', 'warn')
    .option('--no-cache', 'read the recordings as JSONL only: neither read nor write their prepared (Arrow) form')
    .option('--allow-gaps', 'run even though the recordings have gaps (missing market) in the range; the report lists them')
    .action(async (flags: BacktestFlags) => {
      const { backtestAction } = await import('./backtest-action.js');
      await backtestAction(flags, deps);
    });
}
