/** strategy-check: lookahead and warm-up analysis of a config's strategies on a recording (stratd check-strategy). */
export { checkLookahead } from './lookahead.js';
export type { LookaheadOptions } from './lookahead.js';
export { checkWarmup } from './warmup.js';
export type { WarmupOptions } from './warmup.js';
export { checkReport, checkReportJson, checkReportText } from './check-report.js';
export type { StrategyCheckReport } from './check-report.js';
export type { CheckBase, LookaheadResult, StrategyLookahead, ValueAt, WarmupResult, WarmupRow } from './check-types.js';
export type { Difference } from './first-difference.js';
export { StrategyTrace } from './trace.js';
