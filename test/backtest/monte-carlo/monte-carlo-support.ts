import { join } from 'node:path';
import type { BacktestResult } from '../../../src/backtest/types.js';
import { runBacktest } from '../../../src/backtest/runner.js';
import type { MonteCarloInput, MonteCarloOptions } from '../../../src/analysis/monte-carlo/run-monte-carlo.js';
import { ParsedRecording } from '../../../src/recording/parsed-recording.js';
import type { SweepJob } from '../../../src/sweep/types.js';
import { dec } from '../../../src/core/decimal.js';
import quoter from '../../../strategies/spread-quoter/index.js';
import { ACCOUNT, BTC, T0 } from '../backtest-support.js';
import { BASE_PARAMS, quoterJob, SOURCE_QUOTER } from '../sweep-support.js';

/** A small account, so that the quoter's few dollars of PnL make drawdowns of whole per cents. */
export const SMALL_ACCOUNT = { userId: ACCOUNT.userId, futures: { USDT: '200' } };

export const SAMPLE = join(process.cwd(), 'data', 'sample-market.jsonl.gz');

/** The shipped sample's first `minutes`, parsed once. */
export function sampleHead(minutes: number): Promise<ParsedRecording> {
  return ParsedRecording.parse([SAMPLE], { to: T0 + minutes * 60_000 - 1 });
}

/** The spread quoter's backtest on `recording` (the sweep's test job, without axes), ready for a Monte Carlo run. */
export async function quoterInput(recording: ParsedRecording, moduleFile = SOURCE_QUOTER): Promise<MonteCarloInput> {
  const job: SweepJob = { ...quoterJob(SAMPLE, moduleFile, []), account: SMALL_ACCOUNT, to: recording.to };
  const result = await runBacktest({
    strategies: [{ id: 'quoter-btc', symbols: [BTC], definition: quoter, params: quoter.params.parse(BASE_PARAMS), limits: { maxPosition: dec(10), maxOpenOrders: 4 } }],
    risk: { maxOpenOrders: 40, priceBandPct: dec(5) },
    recordings: [SAMPLE],
    recording,
    account: SMALL_ACCOUNT,
    to: recording.to,
  });
  if (!result.ok) throw result.error;
  const backtest: BacktestResult = result.value;
  return { backtest, recording, job };
}

export const OPTIONS: MonteCarloOptions = {
  seed: 42,
  scenarios: 2,
  methods: ['shuffle', 'bootstrap'],
  sampling: 'permute',
  blocks: { blockMs: 5 * 60_000, strideMs: 60_000 },
  ruinDrawdown: 0.05,
  workers: 0,
};
