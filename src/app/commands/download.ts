import type { Command } from 'commander';
import { DOWNLOAD_INTERVAL_MS } from '../../recording/download/plan.js';
import type { DownloadCommandDeps, DownloadFlags } from './download-action.js';

export type { DownloadCommandDeps } from './download-action.js';

/**
 * `stratd download --symbols S... --from T --to T --out FILE`: a past range of the exchange's public
 * market data as a recording `stratd backtest` replays (src/backtest/download). The exchange is the
 * config's, STRATD_BASE_URL or --base-url (no keys needed: every call is public).
 */
export function registerDownloadCommand(program: Command, deps: DownloadCommandDeps): Command {
  return program
    .command('download')
    .description("fetch a past range of the exchange's klines (contract, mark, index), funding history and recent trades as a recording to backtest on; rerun the same command to resume")
    .requiredOption('--symbols <symbol...>', 'contracts, e.g. BTC-SWAP-USDT ETH-SWAP-USDT')
    .requiredOption('--from <time>', 'start: ISO time or epoch ms (bars opening at or after it)')
    .requiredOption('--to <time>', 'end: ISO time or epoch ms (bars ending at or before it; at most the exchange\'s now)')
    .requiredOption('--out <file>', 'recording to write (.jsonl, or .jsonl.gz); work in progress goes to <file>.part/')
    .option('--interval <i>', `bar interval: ${Object.keys(DOWNLOAD_INTERVAL_MS).join(', ')}`, '1m')
    .option('--no-mark', 'skip mark-price klines')
    .option('--no-index', 'skip index-price klines')
    .option('--no-funding', 'skip the funding-rate history')
    .option('--no-trades', 'skip recent trades (only the latest ones exist: a past range rarely has any)')
    .option('--page-size <n>', 'rows per request (default: each endpoint\'s maximum)')
    .option('--force', 'overwrite an existing output file')
    .option('--base-url <url>', 'exchange URL (else STRATD_BASE_URL, else the config\'s exchange.baseUrl)')
    .option('--config <file>', 'YAML config with an exchange section (its baseUrl and rate-limit share)')
    .option('--log-level <level>', 'logs on standard error', 'warn')
    .action(async (flags: DownloadFlags) => {
      const { downloadAction } = await import('./download-action.js');
      await downloadAction(flags, deps);
    });
}
