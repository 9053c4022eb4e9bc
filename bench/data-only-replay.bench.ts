import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import { runBacktest } from '../src/backtest/backtest-runner.js';
import type { BacktestOptions } from '../src/backtest/backtest-types.js';
import { defineStrategy } from '../src/engine/strategy-api.js';
import type { StrategyInstance } from '../src/engine/strategy-instance.js';

const RISK: BacktestOptions['risk'] = {};

/** Lines read, gunzipped and JSON.parse'd per second: the floor any replay of the JSONL form pays. */
export async function bareReadParse(path: string): Promise<{ events: number; perSecond: number }> {
  const started = performance.now();
  let events = 0;
  const lines = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    JSON.parse(line);
    events++;
  }
  return { events, perSecond: events / ((performance.now() - started) / 1000) };
}

/** A strategy on `symbols` that receives every event and does nothing with it. */
export function idleStrategy(symbols: readonly string[]): StrategyInstance {
  const definition = defineStrategy({ name: 'idle', description: 'does nothing (data-only replay)', params: z.unknown(), create: () => ({ onEvent: () => undefined }) });
  return { id: 'idle', symbols, definition, params: {}, limits: {} };
}

/** One data-only backtest of `path` (a do-nothing strategy on `symbols`): events replayed per second of wall time. */
export async function dataOnlyReplay(path: string, symbols: readonly string[], extra: Partial<BacktestOptions> = {}): Promise<{ events: number; perSecond: number }> {
  const started = performance.now();
  const result = await runBacktest({
    strategies: [idleStrategy(symbols)],
    risk: RISK,
    recordings: [path],
    account: { userId: '1', futures: { USDT: '100000' } },
    ...extra,
  });
  if (!result.ok) throw result.error;
  const seconds = (performance.now() - started) / 1000;
  return { events: result.value.summary.events, perSecond: result.value.summary.events / seconds };
}
