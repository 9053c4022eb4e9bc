import { readFileSync } from 'node:fs';
import { dec } from '../../src/core/decimal.js';
import { runBacktest } from '../../src/backtest/runner.js';
import type { BacktestResult } from '../../src/backtest/runner.js';
import { OUTPUT_FILES, writeBacktestOutputs } from '../../src/report/outputs.js';
import type { StrategyInstance } from '../../src/engine/strategy/instance.js';
import { MarketStreamReader } from '../../src/sim/market-stream/reader.js';
import { MarketStreamWriter } from '../../src/sim/market-stream/writer.js';
import breakout from '../../strategies/breakout/index.js';
import quoter from '../../strategies/spread-quoter/index.js';
import { ACCOUNT, tempDir, writeGenerated } from './backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

/** The example strategies of config/default.yml. */
function examples(): StrategyInstance[] {
  return [
    { id: 'quoter-btc', symbols: ['BTC-SWAP-USDT'], definition: quoter, params: quoter.params.parse({ quantity: 1, halfSpreadBps: 2, requoteBps: 2, maxPosition: 5 }), limits: { maxPosition: dec(10), maxOpenOrders: 4 } },
    { id: 'breakout-eth', symbols: ['ETH-SWAP-USDT'], definition: breakout, params: breakout.params.parse({ quantity: 10, windowMs: 20_000 }), limits: { maxPosition: dec(50) } },
  ];
}

async function backtest(recordings: readonly string[]): Promise<BacktestResult> {
  const result = await runBacktest({ strategies: examples(), risk: { maxOrdersPerMinute: 120 }, recordings, account: ACCOUNT });
  if (!result.ok) throw result.error;
  return result.value;
}

let recording: string;
beforeAll(async () => {
  recording = await writeGenerated(tmp.path('market.jsonl'), 42, 12);
});

test('two runs over the same recording write byte-identical outputs and the same fill hash', async () => {
  const first = await backtest([recording]);
  const second = await backtest([recording]);
  expect(first.fills.length).toBeGreaterThan(10);
  expect(first.summary.fillsSha256).toMatch(/^[0-9a-f]{64}$/);
  expect(second.summary.fillsSha256).toBe(first.summary.fillsSha256);
  writeBacktestOutputs(tmp.path('run-1'), first);
  writeBacktestOutputs(tmp.path('run-2'), second);
  for (const name of OUTPUT_FILES) expect(readFileSync(tmp.path(`run-2/${name}`), 'utf8')).toBe(readFileSync(tmp.path(`run-1/${name}`), 'utf8'));
  const summary = JSON.parse(readFileSync(tmp.path('run-1/summary.json'), 'utf8')) as { total: { fills: number }; strategies: Record<string, unknown> };
  expect(summary.total.fills).toBe(first.fills.length);
  expect(Object.keys(summary.strategies)).toEqual(['breakout-eth', 'quoter-btc']);
}, 120_000);

test('a recording split into one file per symbol replays exactly like the whole', async () => {
  const reader = await MarketStreamReader.open(recording);
  const writers = new Map(
    reader.header.symbols.map((symbol) => [
      symbol,
      MarketStreamWriter.open(tmp.path(`${symbol}.jsonl`), { ...reader.header, symbols: [symbol], instruments: reader.header.instruments.filter((i) => i.symbol === symbol) }, { flush: 'buffered' }),
    ]),
  );
  for await (const event of reader) writers.get(event.symbol)!.write(event);
  for (const writer of writers.values()) await writer.close();

  const whole = await backtest([recording]);
  const parts = await backtest([...writers.values()].map((w) => w.path));
  expect(parts.summary.fillsSha256).toBe(whole.summary.fillsSha256);
  expect(parts.summary.events).toBe(whole.summary.events);
  expect(parts.summary.total).toEqual(whole.summary.total);
  expect(parts.summary.recordings.map((r) => r.events).reduce((a, b) => a + b, 0)).toBe(whole.summary.events);
}, 120_000);
