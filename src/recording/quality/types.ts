/**
 * What a data-quality scan finds in a market stream. A `gap` is missing market (a stream silent far
 * beyond its normal cadence, missing bars, a skipped funding settlement): a backtest over it fails
 * unless allowed. The other kinds are reported and do not stop a backtest.
 */
export type QualityKind = 'gap' | 'duplicate' | 'out-of-order' | 'frozen-book';

export const QUALITY_KINDS: readonly QualityKind[] = ['gap', 'duplicate', 'out-of-order', 'frozen-book'];

export interface QualityFinding {
  readonly kind: QualityKind;
  readonly symbol: string;
  /** The stream: a channel (`depth`, `trade`, `mark`, `index`, `funding`) or `bar/<source>`. */
  readonly stream: string;
  /** Line of the recording where it was seen (the header is line 1); absent while recording. */
  readonly line?: number;
  /** Epoch ms: the span concerned (a gap: last event before it, first after it). */
  readonly from: number;
  readonly to: number;
  readonly detail: string;
}

/** When a silence is a gap, and a still book frozen. */
export interface QualityThresholds {
  /** A stream silent for more than this many times its median interval (and more than `minGapMs`) has a gap. */
  readonly gapFactor: number;
  readonly minGapMs: number;
  /** A book unchanged for at least this long while at least `frozenTrades` trades printed is frozen. */
  readonly frozenMs: number;
  readonly frozenTrades: number;
}

export const DEFAULT_QUALITY_THRESHOLDS: QualityThresholds = { gapFactor: 10, minGapMs: 10_000, frozenMs: 60_000, frozenTrades: 10 };

/** Findings kept per recording; the counts stay exact beyond it. */
export const MAX_FINDINGS = 1000;

export type QualityCounts = Readonly<Record<QualityKind, number>>;

/** The scan of one recording file. */
export interface RecordingQuality {
  readonly path: string;
  /** Market events read. */
  readonly events: number;
  readonly counts: QualityCounts;
  /** The first MAX_FINDINGS findings, in the order they were seen. */
  readonly findings: readonly QualityFinding[];
}

export function zeroCounts(): Record<QualityKind, number> {
  return { gap: 0, duplicate: 0, 'out-of-order': 0, 'frozen-book': 0 };
}
