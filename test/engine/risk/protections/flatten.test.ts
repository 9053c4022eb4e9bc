import { dec } from '../../../../src/core/decimal.js';
import { runBacktest } from '../../../../src/backtest/runner.js';
import { ACCOUNT, scripted, T0, tempDir, writeRecording } from '../../../backtest/backtest-support.js';
import { buy, denials, market, plan, protectionEvents } from './protection-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test("flatten: a strategy's trailing drawdown closes its own position (reduce-only) and leaves the other strategy's", async () => {
  // 10 contracts (0.001 BTC each) bought at 100000 peak at 100500 (+5): at 99000 the strategy is 15 below its peak.
  const prices: ReadonlyArray<readonly [number, number]> = [
    [0, 100_000],
    [1, 100_000],
    [2, 100_500],
    [3, 99_000],
    [4, 99_000],
    [5, 99_000],
  ];
  const file = await writeRecording(tmp.path('drawdown.jsonl'), prices.flatMap(([s, p]) => market(T0 + s * 1000, p)));
  const trader = scripted('trader', plan([[T0 + 1000, buy('10')], [T0 + 5000, buy('1')]]));
  const holder = scripted('holder', plan([[T0 + 1000, buy('4')]]));
  const result = await runBacktest({
    strategies: [trader.instance, holder.instance],
    risk: { protections: [{ kind: 'trailingDrawdown', name: 'drawdown', action: 'flatten', scope: 'strategy', strategies: ['trader'], maxAmount: dec(10) }] },
    recordings: [file],
    account: ACCOUNT,
    tickMs: 0,
  });
  if (!result.ok) throw result.error;
  const fills = result.value.fills.map((f) => [f.strategy, f.side, f.qty.toFixed(), f.isClose]);
  expect(fills).toEqual([
    ['trader', 'BUY', '10', false],
    ['holder', 'BUY', '4', false],
    ['trader', 'SELL', '10', true],
  ]);
  expect(denials(trader.seen).map(([, code]) => code)).toEqual(['PROTECTION']);
  const changes = protectionEvents(trader.seen);
  expect(changes.map((c) => [c.protection, c.scopeKey, c.tripped, c.action])).toEqual([['drawdown', 'trader', true, 'flatten']]);
  expect(changes[0]?.reason).toMatch(/below its peak/);
  // Tripped on the drop to 99000; the closing order filled after that.
  expect(Math.floor(((changes[0]?.time ?? 0) - T0) / 1000)).toBe(3);
  expect(result.value.fills[2]?.time).toBeGreaterThanOrEqual(changes[0]?.time ?? Infinity);
  expect(protectionEvents(holder.seen)).toEqual([]);
});
