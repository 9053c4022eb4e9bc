import { asBacktestError } from '../../recording/error.js';
import type { DataQualitySummary } from '../../recording/quality/check.js';
import { checkRecordings, findingText, qualitySummary } from '../../recording/quality/check.js';
import { preparedCacheOf } from '../commands/backtest-flags.js';
import type { CommandIo } from '../commands/command-io.js';

export type DataCommandDeps = CommandIo;

export interface CheckFlags {
  readonly json?: boolean;
  readonly cache: boolean;
  readonly max: string;
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

/** The work of the command registered in data-command.ts, loaded only when it runs. */
export async function dataCheckAction(files: string[], flags: CheckFlags, deps: DataCommandDeps): Promise<void> {
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
}
