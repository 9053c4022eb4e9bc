import type { Command } from 'commander';
import type { CheckFlags, DataCommandDeps } from './data-action.js';

export type { DataCommandDeps } from './data-action.js';

/**
 * `stratd data check FILE...`: the data-quality scan every backtest makes (gaps, duplicates,
 * out-of-order events, frozen books), printed one finding a line with its file and line (or as JSON).
 * Exit 0 without gaps, 1 with gaps (a backtest would refuse them without --allow-gaps), 2 when a
 * recording cannot be read.
 */
export function registerDataCommands(program: Command, deps: DataCommandDeps): Command {
  const data = program.command('data').description('inspect market-stream recordings');
  data
    .command('check')
    .description('scan recordings for gaps, duplicates, out-of-order events and frozen books; exit 1 when there are gaps')
    .argument('<file...>', 'market-stream recordings (.jsonl or .jsonl.gz)')
    .option('--json', 'print the findings as JSON (the shape of summary.json dataQuality)')
    .option('--max <n>', 'findings printed per recording', '50')
    .option('--no-cache', 'scan every time: neither read nor write the scan beside the prepared form')
    .action(async (files: string[], flags: CheckFlags) => {
      const { dataCheckAction } = await import('./data-action.js');
      await dataCheckAction(files, flags, deps);
    });
  return data;
}
