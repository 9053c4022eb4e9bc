import { walkForwardWindows } from '../../../src/sweep/walk-forward/windows.js';
import { windowSpecOf } from '../../../src/app/commands/walk-forward/window-flags.js';
import { ConfigError } from '../../../src/settings/config-error.js';

const MIN = 60_000;
const T = 1_767_225_600_000;

function ok<T>(result: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('walk-forward windows', () => {
  it('cuts N rolling windows whose out-of-sample parts follow one another to the span end', () => {
    const windows = ok(walkForwardWindows({ from: T, to: T + 120 * MIN }, { kind: 'count', windows: 3, inSampleRatio: 3, anchored: false }));
    // 120 min / (3 + 3) = 20 min out of sample, 60 min in sample.
    expect(windows.map((w) => [(w.inSample.from - T) / MIN, (w.inSample.to + 1 - T) / MIN, (w.outOfSample.from - T) / MIN])).toEqual([
      [0, 60, 60],
      [20, 80, 80],
      [40, 100, 100],
    ]);
    expect(windows.at(-1)!.outOfSample.to).toBe(T + 120 * MIN);
    for (let i = 1; i < windows.length; i++) expect(windows[i]!.outOfSample.from).toBe(windows[i - 1]!.outOfSample.to + 1);
  });

  it('anchored windows all start at the start and grow', () => {
    const windows = ok(walkForwardWindows({ from: T, to: T + 120 * MIN }, { kind: 'count', windows: 3, inSampleRatio: 3, anchored: true }));
    expect(windows.map((w) => [w.inSample.from, (w.inSample.to + 1 - T) / MIN])).toEqual([
      [T, 60],
      [T, 80],
      [T, 100],
    ]);
  });

  it('by lengths: as many whole windows as fit, from the start', () => {
    const windows = ok(walkForwardWindows({ from: T, to: T + 100 * MIN - 1 }, { kind: 'lengths', inSampleMs: 30 * MIN, outOfSampleMs: 20 * MIN, anchored: false }));
    expect(windows.map((w) => [(w.inSample.from - T) / MIN, (w.outOfSample.from - T) / MIN, (w.outOfSample.to + 1 - T) / MIN])).toEqual([
      [0, 30, 50],
      [20, 50, 70],
      [40, 70, 90],
    ]);
  });

  it('refuses parts too short to measure, and a span that holds no window', () => {
    const short = walkForwardWindows({ from: T, to: T + 10 * MIN }, { kind: 'count', windows: 4, inSampleRatio: 3, anchored: false });
    expect(short.ok ? '' : short.error).toContain('out-of-sample parts of 1.43 min: at least 2 min each');
    const none = walkForwardWindows({ from: T, to: T + 30 * MIN }, { kind: 'lengths', inSampleMs: 30 * MIN, outOfSampleMs: 5 * MIN, anchored: false });
    expect(none.ok ? '' : none.error).toContain('holds no window of 30 min in-sample and 5 min out-of-sample');
  });
});

describe('window flags', () => {
  it('reads a count with its ratio, or both lengths', () => {
    expect(windowSpecOf({ anchored: false })).toEqual({ kind: 'count', windows: 4, inSampleRatio: 3, anchored: false });
    expect(windowSpecOf({ windows: '6', inSampleRatio: '2.5', anchored: true })).toEqual({ kind: 'count', windows: 6, inSampleRatio: 2.5, anchored: true });
    expect(windowSpecOf({ inSample: '2h', outOfSample: '30m', anchored: false })).toEqual({ kind: 'lengths', inSampleMs: 7_200_000, outOfSampleMs: 1_800_000, anchored: false });
  });

  it('names the flag of a mistake', () => {
    const message = (flags: Parameters<typeof windowSpecOf>[0]): string => {
      try {
        windowSpecOf(flags);
        return '';
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        return error.message;
      }
    };
    expect(message({ windows: '0', anchored: false })).toContain('--windows 0: a whole number from 1 to 1000');
    expect(message({ inSample: '2h', anchored: false })).toContain('--out-of-sample is missing');
    expect(message({ inSample: 'soon', outOfSample: '1h', anchored: false })).toContain('--in-sample soon: a duration');
    expect(message({ windows: '3', inSample: '2h', outOfSample: '1h', anchored: false })).toContain('one way of cutting the windows, not both');
    expect(message({ inSampleRatio: '-1', anchored: false })).toContain('--in-sample-ratio -1');
  });
});
