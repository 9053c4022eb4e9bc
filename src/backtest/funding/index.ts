/** Funding in backtests: which funding series a run settled from (missing ones said out loud) and the PnL split into trading, fees and funding. */
export type { FundingSeriesFigures } from './funding-coverage.js';
export { FundingCoverage } from './funding-coverage.js';
