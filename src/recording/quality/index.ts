/** Data quality of market streams: gaps, duplicates, out-of-order events and frozen books, found while recording and before every backtest. */
export type { QualityCounts, QualityFinding, QualityKind, QualityThresholds, RecordingQuality } from './types.js';
export { DEFAULT_QUALITY_THRESHOLDS, QUALITY_KINDS } from './types.js';
export { QualityScanner } from './scanner.js';
export { recordingScan } from './recording-scan.js';
export { scanWithCache } from './cache.js';
export type { DataQualitySummary, LocatedFinding } from './check.js';
export { checkRecordings, findingText, gapRefusal, qualitySummary } from './check.js';
