import { dec } from '../../../../src/core/decimal.js';
import { runBacktest } from '../../../../src/backtest/runner.js';
import { ACCOUNT, scripted, T0, tempDir, writeRecording } from '../../../backtest/backtest-support.js';
import { buy, denials, market, plan, protectionEvents } from './protection-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test("flatten (global): the account's trailing drawdown closes every strategy's own position under its own id", async () => {
  const prices: ReadonlyArray<readonly [number, number]> = [
    [0, 100_000],
    [1, 100_000],
    [2, 99_000],
    [3, 99_000],
    [4, 99_000],
  ];
  const file = await writeRecording(tmp.path('global.jsonl'), prices.flatMap(([s, p]) => market(T0 + s * 1000, p)));
  const trader = scripted('trader', plan([[T0 + 1000, buy('10')], [T0 + 4000, buy('1')]]));
  const holder = scripted('holder', plan([[T0 + 1000, buy('4')]]));
  const result = await runBacktest({
    strategies: [trader.instance, holder.instance],
    risk: { protections: [{ kind: 'trailingDrawdown', name: 'account-dd', action: 'flatten', scope: 'global', maxAmount: dec(10) }] },
    recordings: [file],
    account: ACCOUNT,
    tickMs: 0,
  });
  if (!result.ok) throw result.error;
  const closes = result.value.fills.filter((f) => f.isClose).map((f) => [f.strategy, f.side, f.qty.toFixed()]);
  expect(closes.sort()).toEqual([
    ['holder', 'SELL', '4'],
    ['trader', 'SELL', '10'],
  ]);
  expect(denials(trader.seen).map(([, code]) => code)).toEqual(['PROTECTION']);
  // A global trip reaches every strategy.
  for (const s of [trader, holder]) expect(protectionEvents(s.seen).map((c) => [c.scopeKey, c.tripped, c.action])).toEqual([['global', true, 'flatten']]);
});
