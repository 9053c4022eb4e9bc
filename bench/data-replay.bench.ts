import { z } from 'zod';
import { parseRecordings, runBacktest } from '../src/backtest/backtest-runner.js';
import { defineStrategy } from '../src/engine/strategy-api.js';
import type { StrategyInstance } from '../src/engine/strategy-instance.js';
import { bareParse, SAMPLE } from './backtest-replay.bench.js';
import type { BenchResult } from './bench-result.js';

/** A strategy that reads nothing and sends nothing: what is left is the replay itself. */
function idle(): StrategyInstance {
  const definition = defineStrategy({
    name: 'bench-idle',
    description: 'does nothing (data-only replay)',
    params: z.object({}),
    create: () => ({ onEvent: () => undefined }),
  });
  return { id: 'idle', symbols: ['BTC-SWAP-USDT', 'ETH-SWAP-USDT'], definition, params: {}, limits: {} };
}

const ACCOUNT = { userId: '1', futures: { USDT: '100000' } } as const;

/**
 * Data-only replay (issue 18, target ≥ 1,000,000 events/s): the sample through the whole backtest with a
 * strategy that does nothing, once from the file (reading and decoding included, as `stratd backtest`
 * runs it: a prepared form of the recording, when the backtest has one, is what it reads) and once from
 * the recording already in memory (the replay alone, as a sweep's combinations run it); the bare
 * gunzip + JSON.parse of the same file beside them.
 */
export async function benchDataReplay(): Promise<BenchResult> {
  const bare = await bareParse();
  const options = { strategies: [idle()], risk: {}, recordings: [SAMPLE], account: ACCOUNT };
  const fromFile = performance.now();
  const file = await runBacktest(options);
  const fileSeconds = (performance.now() - fromFile) / 1000;
  if (!file.ok) throw file.error;
  const parsed = await parseRecordings([SAMPLE]);
  if (!parsed.ok) throw parsed.error;
  const fromMemory = performance.now();
  const memory = await runBacktest({ ...options, recording: parsed.value });
  const memorySeconds = (performance.now() - fromMemory) / 1000;
  if (!memory.ok) throw memory.error;
  const events = file.value.summary.events;
  return {
    name: 'data-only replay',
    figures: {
      events,
      bareParseEventsPerSecond: Math.round(bare.perSecond),
      fromFileEventsPerSecond: Math.round(events / fileSeconds),
      fromMemoryEventsPerSecond: Math.round(memory.value.summary.events / memorySeconds),
      fromFileShareOfBareParse: Number((events / fileSeconds / bare.perSecond).toFixed(3)),
    },
    target: 'data-only replay ≥ 1,000,000 events/s',
  };
}
