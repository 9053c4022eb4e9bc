import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { TimeSpan } from '../types.js';

/** The shortest out-of-sample part: a backtest samples equity once a minute, its ratios need two returns. */
export const MIN_OUT_OF_SAMPLE_MS = 2 * 60_000;

/**
 * How the recording is cut into walk-forward windows. Either `windows` (a count; the out-of-sample
 * length then follows from the span and `inSampleRatio`) or both lengths. Rolling windows keep the
 * in-sample length; anchored ones all start at the span's start and grow.
 */
export type WindowSpec =
  | { readonly kind: 'count'; readonly windows: number; readonly inSampleRatio: number; readonly anchored: boolean }
  | { readonly kind: 'lengths'; readonly inSampleMs: number; readonly outOfSampleMs: number; readonly anchored: boolean };

/** One window: the in-sample part the best combination is chosen on, and the out-of-sample part right after it. Spans are inclusive of `to`. */
export interface WalkForwardWindow {
  /** 0-based. */
  readonly index: number;
  readonly inSample: TimeSpan;
  readonly outOfSample: TimeSpan;
}

/**
 * The windows over `span` (first to last event, inclusive). The out-of-sample parts follow one another
 * without gap or overlap, the first right after the first in-sample part:
 *   rolling:  IS_i = [start + i·OOS, start + i·OOS + IS),  OOS_i = [start + IS + i·OOS, start + IS + (i+1)·OOS)
 *   anchored: IS_i = [start, start + IS + i·OOS),          OOS_i as rolling.
 * With a count N and ratio r: OOS = ⌊(last − first event) / (N + r)⌋, IS = ⌊r·OOS⌋, the last OOS ending at the span's
 * end (its last event included); what the division leaves over comes before the first window.
 * With lengths: as many windows as fit whole. Too short a span or part is an error message.
 */
export function walkForwardWindows(span: TimeSpan, spec: WindowSpec): Result<WalkForwardWindow[], string> {
  // Count mode measures from the first to the last event, so the parts' boundaries fall where the span's end does (the last part also holds its last millisecond).
  const length = spec.kind === 'count' ? span.to - span.from : span.to - span.from + 1;
  let inSampleMs: number;
  let outOfSampleMs: number;
  let count: number;
  if (spec.kind === 'count') {
    if (!Number.isInteger(spec.windows) || spec.windows < 1) return err(`${spec.windows} windows: a whole number of at least 1`);
    if (!(spec.inSampleRatio > 0)) return err(`in-sample ratio ${spec.inSampleRatio}: more than 0`);
    outOfSampleMs = Math.floor(length / (spec.windows + spec.inSampleRatio));
    inSampleMs = Math.floor(spec.inSampleRatio * outOfSampleMs);
    count = spec.windows;
  } else {
    inSampleMs = spec.inSampleMs;
    outOfSampleMs = spec.outOfSampleMs;
    count = Math.floor((length - inSampleMs) / outOfSampleMs);
  }
  const described = `${minutes(length)} of recording`;
  if (outOfSampleMs < MIN_OUT_OF_SAMPLE_MS) return err(`out-of-sample parts of ${minutes(outOfSampleMs)}: at least ${minutes(MIN_OUT_OF_SAMPLE_MS)} each (${described}; fewer windows or a longer recording)`);
  if (inSampleMs < MIN_OUT_OF_SAMPLE_MS) return err(`in-sample parts of ${minutes(inSampleMs)}: at least ${minutes(MIN_OUT_OF_SAMPLE_MS)} each (${described})`);
  if (count < 1) return err(`${described} holds no window of ${minutes(inSampleMs)} in-sample and ${minutes(outOfSampleMs)} out-of-sample`);
  // Count mode: the remainder of the division goes before the first window, so the last one ends at the span's end.
  const start = spec.kind === 'count' ? span.to - inSampleMs - count * outOfSampleMs : span.from;
  const windows: WalkForwardWindow[] = [];
  for (let i = 0; i < count; i++) {
    const oosFrom = start + inSampleMs + i * outOfSampleMs;
    const isFrom = spec.anchored ? start : oosFrom - inSampleMs;
    const oosTo = spec.kind === 'count' && i === count - 1 ? span.to : oosFrom + outOfSampleMs - 1;
    windows.push({ index: i, inSample: { from: isFrom, to: oosFrom - 1 }, outOfSample: { from: oosFrom, to: oosTo } });
  }
  return ok(windows);
}

/** A span's length in days (inclusive of `to`). */
export function spanDays(span: TimeSpan): number {
  return (span.to - span.from + 1) / 86_400_000;
}

function minutes(ms: number): string {
  const m = ms / 60_000;
  return `${Number.isInteger(m) ? m : m.toFixed(2)} min`;
}
