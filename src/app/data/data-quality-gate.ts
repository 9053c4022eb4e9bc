import type { DataQualitySummary } from '../../recording/quality/check.js';
import { checkRecordings, findingText, gapRefusal, qualitySummary } from '../../recording/quality/check.js';
import type { PreparedCacheOptions } from '../../recording/prepared/cache.js';
import { asBacktestError } from '../../recording/error.js';
import { ConfigError } from '../../settings/config-error.js';

export interface DataQualityGateOptions {
  readonly from: number | undefined;
  readonly to: number | undefined;
  readonly cache: PreparedCacheOptions | undefined;
  readonly allowGaps: boolean;
  /** The command, for its messages (`stratd backtest: warning: …`). */
  readonly command: string;
  readonly err: (text: string) => void;
}

/**
 * The check every backtest makes before it replays: the recordings scanned (or their cached scan read)
 * for the range; gaps refuse the run with a located message (a ConfigError, exit 2) unless allowed; what
 * does not stop it is told on standard error. A recording that cannot be read is left to the replay to
 * report (undefined: no scan).
 */
export async function checkDataQuality(recordings: readonly string[], options: DataQualityGateOptions): Promise<DataQualitySummary | undefined> {
  let summary: DataQualitySummary;
  try {
    const reports = await checkRecordings(recordings, {
      ...(options.from === undefined ? {} : { from: options.from }),
      ...(options.to === undefined ? {} : { to: options.to }),
      ...(options.cache === undefined ? {} : { cache: options.cache }),
    });
    summary = qualitySummary(reports, options.allowGaps);
  } catch (error: unknown) {
    if (asBacktestError(error) === undefined) throw error;
    return undefined;
  }
  const refusal = gapRefusal(summary);
  if (refusal !== undefined) throw new ConfigError(refusal, { path: '--data' });
  const { counts } = summary;
  const listed = counts.gap + counts.duplicate + counts['out-of-order'] + counts['frozen-book'];
  if (listed > 0) {
    const first = summary.findings[0];
    options.err(
      `stratd ${options.command}: warning: data quality: ${counts.gap} gaps${options.allowGaps && counts.gap > 0 ? ' (allowed)' : ''}, ${counts.duplicate} duplicates, ${counts['out-of-order']} out of order, ${counts['frozen-book']} frozen books${first === undefined ? '' : `; first: ${findingText(first)}`}; summary.json and report.html list them\n`,
    );
  }
  return summary;
}
