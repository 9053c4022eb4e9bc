import { InvariantError } from '../../core/errors.js';
import { ParsedRecording } from '../../recording/parsed-recording.js';

/**
 * `count` cut points spread evenly over the recording's span (never at its ends): the i-th of n at
 * first + (last − first) × i / (n + 1), whole milliseconds, distinct.
 */
export function cutPoints(first: number, last: number, count: number): number[] {
  const cuts = new Set<number>();
  for (let i = 1; i <= count; i++) {
    const cut = first + Math.floor(((last - first) * i) / (count + 1));
    if (cut > first && cut < last) cuts.add(cut);
  }
  return [...cuts].sort((a, b) => a - b);
}

/** The recording as if it had ended at `to` (inclusive): the same events up to then, nothing after. */
export function truncatedRecording(recording: ParsedRecording, to: number): ParsedRecording {
  const parts = recording.parts();
  if (to > parts.to) throw new InvariantError('CUT_AFTER_END', `cut at ${to} after the recording's end ${parts.to}`);
  let lo = 0;
  let hi = parts.events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (parts.events[mid]!.ts <= to) lo = mid + 1;
    else hi = mid;
  }
  return ParsedRecording.fromParts({ ...parts, events: parts.events.slice(0, lo), sourceOf: parts.sourceOf.slice(0, lo), warnings: [], to });
}

/** The `to` a backtest on this recording must be given: its own, when it was read only up to a time. */
export function untilEnd(recording: ParsedRecording): { readonly to?: number } {
  return Number.isFinite(recording.to) ? { to: recording.to } : {};
}
