import type { PreparedCacheOptions } from '../prepared/cache.js';
import { scanWithCache } from './cache.js';
import type { QualityCounts, QualityFinding, QualityThresholds, RecordingQuality } from './types.js';
import { zeroCounts } from './types.js';

/** A finding with the recording it is in, as summary.json lists it. */
export interface LocatedFinding extends QualityFinding {
  readonly file: string;
}

/** summary.json `dataQuality`: what the scan found in the backtest's range. */
export interface DataQualitySummary {
  /** The backtest ran over gaps because it was told to (`--allow-gaps`). */
  readonly allowGaps: boolean;
  readonly counts: QualityCounts;
  readonly findings: readonly LocatedFinding[];
}

export interface QualityCheckOptions {
  readonly thresholds?: QualityThresholds;
  /** Where the scan of each recording is cached (the prepared form's place); absent: scanned every time. */
  readonly cache?: PreparedCacheOptions;
  /** Only findings that overlap [from, to] count (epoch ms). */
  readonly from?: number;
  readonly to?: number;
}

/** Scans every recording (or reads its cached scan) and keeps the findings that overlap the range. */
export async function checkRecordings(paths: readonly string[], options: QualityCheckOptions = {}): Promise<RecordingQuality[]> {
  const from = options.from ?? Number.NEGATIVE_INFINITY;
  const to = options.to ?? Number.POSITIVE_INFINITY;
  const reports: RecordingQuality[] = [];
  for (const path of paths) {
    const report = await scanWithCache(path, options.thresholds, options.cache);
    if (options.from === undefined && options.to === undefined) {
      reports.push(report);
      continue;
    }
    const findings = report.findings.filter((f) => f.to >= from && f.from <= to);
    const counts = zeroCounts();
    for (const f of findings) counts[f.kind]++;
    reports.push({ ...report, counts, findings });
  }
  return reports;
}

export function qualitySummary(reports: readonly RecordingQuality[], allowGaps: boolean): DataQualitySummary {
  const counts = zeroCounts();
  const findings: LocatedFinding[] = [];
  for (const report of reports) {
    for (const [kind, n] of Object.entries(report.counts) as Array<[keyof QualityCounts, number]>) counts[kind] += n;
    for (const finding of report.findings) findings.push({ file: report.path, ...finding });
  }
  return { allowGaps, counts, findings };
}

/** `file:line: KIND in SYMBOL STREAM: detail`, the way every command prints a finding. */
export function findingText(finding: LocatedFinding): string {
  const where = finding.line === undefined ? finding.file : `${finding.file}:${finding.line}`;
  return `${where}: ${finding.kind} in ${finding.symbol} ${finding.stream}: ${finding.detail}`;
}

/**
 * Why a backtest must not run over these recordings (they have gaps and it was not allowed), naming
 * the first gap's file and line; undefined when it may run.
 */
export function gapRefusal(summary: DataQualitySummary): string | undefined {
  if (summary.allowGaps || summary.counts.gap === 0) return undefined;
  const gaps = summary.findings.filter((f) => f.kind === 'gap');
  const first = gaps[0];
  if (first === undefined) return undefined;
  const more = summary.counts.gap - 1;
  return [
    `the recording has ${summary.counts.gap === 1 ? 'a gap' : `${summary.counts.gap} gaps`} in the backtest's range: ${findingText(first)}`,
    more > 0 ? ` (and ${more} more: \`stratd data check\` lists them)` : '',
    '; a backtest over missing market overstates what a strategy would have done. Give --allow-gaps to run over them (the report lists them), or --from/--to around them',
  ].join('');
}
