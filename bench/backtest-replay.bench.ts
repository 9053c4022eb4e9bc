import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { klineSeriesOf, openingAccount } from '../src/app/commands/backtest-flags.js';
import { prepareRun } from '../src/app/commands/run.js';
import { runBacktest } from '../src/backtest/runner.js';
import type { PreparedCacheOptions } from '../src/recording/prepared/cache.js';
import { PreparedRecording } from '../src/recording/prepared/index.js';
import type { BenchResult } from './bench-result.js';
import { bareReadParse } from './data-only-replay.bench.js';

export const SAMPLE = 'data/sample-market.jsonl.gz';
export const CONFIG = 'config/default.yml';

/**
 * The whole backtest of config/default.yml's strategies on `recording`, as `stratd backtest` runs it
 * (`prepared`: from the recording's prepared form, as it does by default; absent: `--no-cache`).
 */
async function backtest(recording: string, prepared?: PreparedCacheOptions): Promise<{ events: number; perSecond: number; fills: number }> {
  const setup = await prepareRun({ config: CONFIG }, {});
  if (!setup.ok) throw setup.error;
  const { config, strategies } = setup.value;
  const account = openingAccount(config, undefined);
  if (!account.ok) throw account.error;
  const started = performance.now();
  const result = await runBacktest({ strategies, risk: config.risk, recordings: [recording], account: account.value, orphans: config.orphans, klines: klineSeriesOf(config), ...(prepared === undefined ? {} : { prepared }) });
  if (!result.ok) throw result.error;
  const seconds = (performance.now() - started) / 1000;
  return { events: result.value.summary.events, perSecond: result.value.summary.events / seconds, fills: result.value.fills.length };
}

/**
 * Replay throughput of the backtest next to the bare read-and-parse of the same recording (issue 18's
 * target: at least half the bare parse; the median of three passes, one before the backtests and two after), as `stratd backtest` runs it: from the recording's prepared
 * form, built beforehand (the first backtest of a recording builds it; timed apart in the `data` bench),
 * and with `--no-cache` (the JSONL read as it runs). The sweep's speed-up is `sweep` (sweep.bench.ts).
 */
export async function benchBacktestReplay(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'stratd-bench-backtest-'));
  try {
    const path = join(dir, basename(SAMPLE));
    copyFileSync(SAMPLE, path);
    await PreparedRecording.load([path], undefined, {});
    // The reference is the median of three bare passes, one before the backtests and two after them (none
    // between, so the timed run starts from the same process state as before): one cold pass alone moved
    // between 322,000 and 467,000 events/s across a day's runs.
    const passes = [await bareReadParse(path)];
    const jsonl = await backtest(path);
    const prepared = await backtest(path, {});
    passes.push(await bareReadParse(path), await bareReadParse(path));
    const bareRates = passes.map((pass) => pass.perSecond).sort((a, b) => a - b);
    const bare = { perSecond: bareRates[1] ?? 0 };
    return {
      name: 'backtest replay',
      figures: {
        events: prepared.events,
        bareParseEventsPerSecond: Math.round(bare.perSecond),
        bareParseSlowestEventsPerSecond: Math.round(bareRates[0] ?? 0),
        bareParseFastestEventsPerSecond: Math.round(bareRates[2] ?? 0),
        backtestEventsPerSecond: Math.round(prepared.perSecond),
        backtestShareOfBareParse: Number((prepared.perSecond / bare.perSecond).toFixed(3)),
        backtestNoCacheEventsPerSecond: Math.round(jsonl.perSecond),
        backtestNoCacheShareOfBareParse: Number((jsonl.perSecond / bare.perSecond).toFixed(3)),
        fills: prepared.fills,
      },
      target: 'backtest ≥ 0.5 × bare parse',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
