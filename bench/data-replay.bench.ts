import { parseRecordings, runBacktest } from '../src/backtest/runner.js';
import { SAMPLE } from './backtest-replay.bench.js';
import type { BenchResult } from './bench-result.js';
import { benchDataOnly, benchDataOnlyLarge, idleStrategy } from './data-only-replay.bench.js';
import { positiveIntegerSetting } from './bench-settings.js';

const SYMBOLS = ['BTC-SWAP-USDT', 'ETH-SWAP-USDT'];
const ACCOUNT = { userId: '1', futures: { USDT: '100000' } } as const;

/**
 * Data-only replay (issue 18, target ≥ 1,000,000 events/s from the prepared form): the sample through the
 * whole backtest with a strategy that does nothing, from the JSONL, from the prepared (columnar) form and
 * from the recording already in memory (the replay alone, as a sweep's combinations run it); the bare
 * gunzip + JSON.parse of the same file beside them. The sample (128k events) is small enough that set-up
 * weighs on its figures, so the steady rate is measured on a larger recording made of the sample's events
 * repeated (`large…`: `BENCH_DATA_COPIES` copies, default 8, about a million events), loaded beforehand.
 */
export async function benchDataReplay(): Promise<BenchResult> {
  const prepared = await benchDataOnly(SAMPLE, SYMBOLS);
  const large = await benchDataOnlyLarge(SAMPLE, SYMBOLS, copies());
  const parsed = await parseRecordings([SAMPLE]);
  if (!parsed.ok) throw parsed.error;
  const started = performance.now();
  const memory = await runBacktest({ strategies: [idleStrategy(SYMBOLS)], risk: {}, recordings: [SAMPLE], account: ACCOUNT, recording: parsed.value });
  const memorySeconds = (performance.now() - started) / 1000;
  if (!memory.ok) throw memory.error;
  return {
    name: 'data-only replay',
    figures: {
      events: memory.value.summary.events,
      bareParseEventsPerSecond: prepared['bareReadParseEventsPerSecond'] ?? 0,
      fromMemoryEventsPerSecond: Math.round(memory.value.summary.events / memorySeconds),
      ...prepared,
      ...large,
    },
    target: 'data-only replay from the prepared form ≥ 1,000,000 events/s (steady, on the large recording)',
  };
}

/** `BENCH_DATA_COPIES`: how many copies of the sample the large recording holds (default 8, ~1M events). */
function copies(): number {
  return positiveIntegerSetting('BENCH_DATA_COPIES', 8);
}
