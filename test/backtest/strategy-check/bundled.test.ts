import { parseJsonlRecordings } from '../../../src/backtest/runner.js';
import type { LookaheadResult } from '../../../src/analysis/strategy-check/index.js';
import { checkLookahead } from '../../../src/analysis/strategy-check/index.js';
import { klineSeriesOf } from '../../../src/app/commands/backtest-flags.js';
import { prepareRun } from '../../../src/app/commands/run.js';
import type { StrategyInstance } from '../../../src/engine/strategy/instance.js';
import type { KlineSeries } from '../../../src/backtest/types.js';
import { BTC_SWAP_USDT, ETH_SWAP_USDT } from '../../../src/sim/market-stream/instruments.js';
import type { SimInstrument } from '../../../src/sim/market-stream/instruments.js';
import { ACCOUNT, tempDir, writeGenerated } from '../backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

/** The configs' strategies, checked together on `minutes` of the generated market. */
async function check(configs: readonly string[], minutes: number, instruments: readonly SimInstrument[]): Promise<{ strategies: StrategyInstance[]; result: LookaheadResult }> {
  const strategies: StrategyInstance[] = [];
  const klines: KlineSeries[] = [];
  for (const config of configs) {
    const prepared = await prepareRun({ config }, { HOME: tmp.dir });
    if (!prepared.ok) throw prepared.error;
    strategies.push(...prepared.value.strategies);
    klines.push(...klineSeriesOf(prepared.value.config));
  }
  const parsed = await parseJsonlRecordings([await writeGenerated(tmp.path(`market-${minutes}.jsonl`), 7, minutes, instruments)]);
  if (!parsed.ok) throw parsed.error;
  const result = await checkLookahead({ base: { strategies, risk: {}, account: ACCOUNT, klines }, recording: parsed.value, cuts: 2 });
  if (!result.ok) throw result.error;
  return { strategies, result: result.value };
}

test('trend shows no lookahead: its intents and EMA/ATR values before each cut are the full run\'s', async () => {
  const { result } = await check(['config/strategies/trend.yml'], 40, [BTC_SWAP_USDT]);
  expect(result.found).toBe(false);
  const [trend] = result.strategies;
  expect(trend?.strategy).toBe('trend-btc');
  expect(trend?.findings).toEqual([]);
  expect(trend?.indicators).toHaveLength(3);
  expect(trend?.indicatorValues).toBeGreaterThan(60);
}, 120_000);

test('the other bundled strategies show no lookahead: what they emit before each cut is the full run\'s', async () => {
  const configs = ['config/default.yml', 'config/strategies/grid.yml', 'config/strategies/market-maker.yml', 'config/strategies/bracket.yml', 'config/strategies/funding-carry.yml'];
  const { strategies, result } = await check(configs, 6, [BTC_SWAP_USDT, ETH_SWAP_USDT]);
  expect(new Set(strategies.map((s) => s.definition.name))).toEqual(new Set(['spread-quoter', 'breakout', 'grid', 'market-maker', 'bracket', 'funding-carry']));
  expect(result.strategies.map((s) => [s.strategy, s.findings])).toEqual(strategies.map((s) => s.id).sort().map((id) => [id, []]));
  expect(result.found).toBe(false);
  // The check compared something: the strategies traded.
  expect(result.strategies.reduce((n, s) => n + s.intents, 0)).toBeGreaterThan(10);
}, 120_000);
