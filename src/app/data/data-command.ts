import type { Command } from 'commander';
import { asBacktestError } from '../../recording/error.js';
import type { DataQualitySummary } from '../../recording/quality/check.js';
import { checkRecordings, findingText, qualitySummary } from '../../recording/quality/check.js';
import type { Environment } from '../../settings/secrets.js';
import { preparedCacheOf } from '../commands/backtest-flags.js';

export interface DataCommandDeps {
  readonly env: Environment;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
}

interface CheckFlags {
  readonly json?: boolean;
  readonly cache: boolean;
  readonly max: string;
}

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
      const max = /^\d+$/.test(flags.max) ? Number(flags.max) : 50;
      const cache = preparedCacheOf(flags.cache, deps.env, 'data check', deps.err);
      let summary: DataQualitySummary;
      try {
        summary = qualitySummary(await checkRecordings(files, cache === undefined ? {} : { cache }), false);
      } catch (error: unknown) {
        const known = asBacktestError(error);
        if (known === undefined) throw error;
        deps.err(`stratd data check: ${known.message}\n`);
        deps.setExitCode(2);
        return;
      }
      deps.out(flags.json === true ? `${JSON.stringify(summary, null, 2)}\n` : text(files, summary, max));
      deps.setExitCode(summary.counts.gap > 0 ? 1 : 0);
    });
  return data;
}

function text(files: readonly string[], summary: DataQualitySummary, max: number): string {
  const lines: string[] = [];
  for (const file of files) {
    const own = summary.findings.filter((f) => f.file === file);
    lines.push(`${file}: ${own.length === 0 ? 'no findings' : `${own.length} finding${own.length === 1 ? '' : 's'}`}`);
    for (const finding of own.slice(0, max)) lines.push(`  ${findingText(finding)}`);
    if (own.length > max) lines.push(`  … ${own.length - max} more (--max, or --json for all)`);
  }
  const c = summary.counts;
  lines.push(`gaps ${c.gap}, duplicates ${c.duplicate}, out of order ${c['out-of-order']}, frozen books ${c['frozen-book']}${c.gap > 0 ? ' — a backtest over the gaps needs --allow-gaps' : ''}`);
  return `${lines.join('\n')}\n`;
}
