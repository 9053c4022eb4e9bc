import { klineSeriesOf, openingAccount } from '../src/app/commands/backtest-flags.js';
import { prepareRun } from '../src/app/commands/run.js';
import { runBacktest } from '../src/backtest/runner.js';
import type { BenchResult } from './bench-result.js';
import { bareReadParse } from './data-only-replay.bench.js';

export const SAMPLE = 'data/sample-market.jsonl.gz';
export const CONFIG = 'config/default.yml';

/** The whole backtest of config/default.yml's strategies on the sample, as `npm run backtest` runs it. */
async function backtest(): Promise<{ events: number; perSecond: number; fills: number }> {
  const prepared = await prepareRun({ config: CONFIG }, {});
  if (!prepared.ok) throw prepared.error;
  const { config, strategies } = prepared.value;
  const account = openingAccount(config, undefined);
  if (!account.ok) throw account.error;
  const started = performance.now();
  const result = await runBacktest({ strategies, risk: config.risk, recordings: [SAMPLE], account: account.value, orphans: config.orphans, klines: klineSeriesOf(config) });
  if (!result.ok) throw result.error;
  const seconds = (performance.now() - started) / 1000;
  return { events: result.value.summary.events, perSecond: result.value.summary.events / seconds, fills: result.value.fills.length };
}

/**
 * Replay throughput of the backtest next to the bare read-and-parse of the same recording (issue 18's
 * target: at least half the bare parse). The sweep's speed-up is `sweep` (sweep.bench.ts).
 */
export async function benchBacktestReplay(): Promise<BenchResult> {
  const bare = await bareReadParse(SAMPLE);
  const full = await backtest();
  return {
    name: 'backtest replay',
    figures: {
      events: full.events,
      bareParseEventsPerSecond: Math.round(bare.perSecond),
      backtestEventsPerSecond: Math.round(full.perSecond),
      backtestShareOfBareParse: Number((full.perSecond / bare.perSecond).toFixed(3)),
      fills: full.fills,
    },
    target: 'backtest ≥ 0.5 × bare parse',
  };
}
