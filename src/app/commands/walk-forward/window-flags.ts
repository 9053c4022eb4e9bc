import type { WindowSpec } from '../../../sweep/walk-forward/windows.js';
import { ConfigError } from '../../../settings/config-error.js';
import { parseDuration } from '../../../settings/duration-text.js';

export interface WindowFlags {
  readonly windows?: string;
  readonly inSampleRatio?: string;
  readonly inSample?: string;
  readonly outOfSample?: string;
  readonly anchored: boolean;
}

export const DEFAULT_WINDOWS = 4;
export const DEFAULT_IN_SAMPLE_RATIO = 3;

/**
 * The window flags as a WindowSpec: `--in-sample DUR --out-of-sample DUR` (both), or `--windows N`
 * with `--in-sample-ratio R` (defaults 4 and 3); the two ways do not mix. A mistake names the flag.
 */
export function windowSpecOf(flags: WindowFlags): WindowSpec {
  const lengths = flags.inSample !== undefined || flags.outOfSample !== undefined;
  if (lengths) {
    if (flags.windows !== undefined || flags.inSampleRatio !== undefined) {
      throw new ConfigError('--windows/--in-sample-ratio or --in-sample/--out-of-sample: one way of cutting the windows, not both', { path: flags.windows !== undefined ? '--windows' : '--in-sample-ratio' });
    }
    return { kind: 'lengths', inSampleMs: durationFlag('in-sample', flags.inSample), outOfSampleMs: durationFlag('out-of-sample', flags.outOfSample), anchored: flags.anchored };
  }
  const windows = flags.windows === undefined ? DEFAULT_WINDOWS : Number(flags.windows.trim());
  if (flags.windows !== undefined && (!/^\d+$/.test(flags.windows.trim()) || windows < 1 || windows > 1000)) throw new ConfigError(`--windows ${flags.windows}: a whole number from 1 to 1000`, { path: '--windows' });
  const ratio = flags.inSampleRatio === undefined ? DEFAULT_IN_SAMPLE_RATIO : Number(flags.inSampleRatio.trim());
  if (flags.inSampleRatio !== undefined && (!/^\d+(\.\d+)?$/.test(flags.inSampleRatio.trim()) || !(ratio > 0) || ratio > 1000)) {
    throw new ConfigError(`--in-sample-ratio ${flags.inSampleRatio}: a number above 0 (in-sample length over out-of-sample length), at most 1000`, { path: '--in-sample-ratio' });
  }
  return { kind: 'count', windows, inSampleRatio: ratio, anchored: flags.anchored };
}

function durationFlag(name: string, text: string | undefined): number {
  if (text === undefined) throw new ConfigError(`--${name} is missing: --in-sample and --out-of-sample go together`, { path: `--${name}` });
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) throw new ConfigError(`--${name} ${text}: a duration such as 90m, 2h or 1d`, { path: `--${name}` });
  return ms;
}
