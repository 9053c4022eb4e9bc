import { join } from 'node:path';
import { dec } from '../../src/core/decimal.js';
import type { SweepJob } from '../../src/sweep/types.js';
import { ACCOUNT, BTC } from './backtest-support.js';

export const GRID = `strategies:
  quoter-btc:
    params: { halfSpreadBps: [1, 4], requoteBps: [1, 3] }
    risk: { maxPosition: [2, 10] }
`;

export const BASE_PARAMS = { quantity: 1, halfSpreadBps: 2, requoteBps: 2, maxPosition: 5 };

/** A sweep of the spread quoter over `recording`, its module at `moduleFile` (source or compiled). */
export function quoterJob(recording: string, moduleFile: string, axes: SweepJob['axes']): SweepJob {
  return {
    strategies: [{ id: 'quoter-btc', symbols: [BTC], moduleFile, params: BASE_PARAMS, limits: { maxPosition: '10', maxOpenOrders: 4 } }],
    risk: { maxOpenOrders: 40, priceBandPct: dec(5).toFixed() },
    recordings: [recording],
    account: ACCOUNT,
    axes,
  };
}

export const SOURCE_QUOTER = join(process.cwd(), 'strategies', 'spread-quoter', 'index.ts');
