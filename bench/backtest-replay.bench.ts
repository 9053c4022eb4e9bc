import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { klineSeriesOf, openingAccount } from '../src/app/backtest-flags.js';
import { prepareRun } from '../src/app/run-command.js';
import { runBacktest } from '../src/backtest/backtest-runner.js';
import type { BenchResult } from './bench-result.js';
import { benchDataOnly } from './data-only-replay.bench.js';

const SAMPLE = 'data/sample-market.jsonl.gz';
const CONFIG = 'config/default.yml';

/** Lines read and JSON.parse'd per second: the floor any replay has to pay. */
async function bareParse(): Promise<{ events: number; perSecond: number }> {
  const started = performance.now();
  let events = 0;
  const lines = createInterface({ input: createReadStream(SAMPLE).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    JSON.parse(line);
    events++;
  }
  return { events, perSecond: events / ((performance.now() - started) / 1000) };
}

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

/** Wall time of `stratd sweep` over a 4-combination grid with the given worker count (the built CLI). */
function sweepSeconds(workers: number, grid: string, out: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['bin/stratd.js', 'sweep', '--config', CONFIG, '--data', SAMPLE, '--grid', grid, '--workers', String(workers), '--out', out], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`stratd sweep --workers ${workers} failed: ${run.stderr}`);
  return (performance.now() - started) / 1000;
}

/**
 * Replay throughput of the backtest next to the bare read-and-parse of the same recording (issue 5's
 * target: at least half the bare parse and at least 500 000 events/s), and the sweep speed-up of
 * 2 workers over 1.
 */
export async function benchBacktestReplay(): Promise<BenchResult> {
  const bare = await bareParse();
  const full = await backtest();
  // Data only (a strategy that does nothing), from the JSONL and from the prepared form, beside its own bare parse.
  const dataOnly = await benchDataOnly(SAMPLE, ['BTC-SWAP-USDT', 'ETH-SWAP-USDT']);
  const dir = mkdtempSync(join(tmpdir(), 'stratd-bench-sweep-'));
  try {
    const grid = join(dir, 'grid.yml');
    writeFileSync(grid, 'strategies:\n  quoter-btc:\n    params:\n      halfSpreadBps: [2, 5]\n      requoteBps: [2, 4]\n');
    const one = sweepSeconds(1, grid, join(dir, 'one'));
    const two = sweepSeconds(2, grid, join(dir, 'two'));
    return {
      name: 'backtest replay',
      figures: {
        events: full.events,
        bareParseEventsPerSecond: Math.round(bare.perSecond),
        backtestEventsPerSecond: Math.round(full.perSecond),
        backtestShareOfBareParse: Number((full.perSecond / bare.perSecond).toFixed(3)),
        fills: full.fills,
        sweep4With1WorkerSeconds: Number(one.toFixed(1)),
        sweep4With2WorkersSeconds: Number(two.toFixed(1)),
        sweepSpeedUp: Number((one / two).toFixed(2)),
        ...dataOnly,
      },
      target: 'backtest ≥ 0.5 × bare parse and ≥ 500000 events/s; data only from the prepared form ≥ 1000000 events/s; sweep speed-up with 2 workers close to 2',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
