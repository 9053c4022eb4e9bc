/** Data quality of market streams: gaps, duplicates, out-of-order events and frozen books, found while recording and before every backtest. */
export type { QualityCounts, QualityFinding, QualityKind, QualityThresholds, RecordingQuality } from './quality-types.js';
export { DEFAULT_QUALITY_THRESHOLDS, QUALITY_KINDS } from './quality-types.js';
export { QualityScanner } from './quality-scanner.js';
export { recordingScan } from './recording-scan.js';
export { scanWithCache } from './quality-cache.js';
export type { DataQualitySummary, LocatedFinding } from './quality-check.js';
export { checkRecordings, findingText, gapRefusal, qualitySummary } from './quality-check.js';
export { dataQualitySection } from './report-data-quality.js';
