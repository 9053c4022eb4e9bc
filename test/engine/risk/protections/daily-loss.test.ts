import { dec } from '../../../../src/core/decimal.js';
import { runBacktest } from '../../../../src/backtest/runner.js';
import { ACCOUNT, scripted, T0, tempDir, writeRecording } from '../../../backtest/backtest-support.js';
import { buy, denials, market, plan, sell } from './protection-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test('the daily loss limit configured as a dailyLoss protection engages the kill switch (pause until the daily reset)', async () => {
  const prices: ReadonlyArray<readonly [number, number]> = [
    [0, 100_000],
    [1, 100_000],
    [2, 99_000],
    [3, 99_000],
  ];
  const file = await writeRecording(tmp.path('daily.jsonl'), prices.flatMap(([s, p]) => market(T0 + s * 1000, p)));
  const trader = scripted('trader', plan([[T0 + 1000, buy('10')], [T0 + 2000, sell('10')], [T0 + 3000, buy('1')]]));
  const result = await runBacktest({
    strategies: [trader.instance],
    risk: { protections: [{ kind: 'dailyLoss', name: 'dailyLoss', action: 'pause', scope: 'global', limit: dec(5) }] },
    recordings: [file],
    account: ACCOUNT,
    tickMs: 0,
  });
  if (!result.ok) throw result.error;
  expect(result.value.fills.map((f) => f.side)).toEqual(['BUY', 'SELL']);
  expect(denials(trader.seen).map(([, code]) => code)).toEqual(['KILL_SWITCH']);
  const engaged = trader.seen.flatMap((s) => (s.event.type === 'risk.killSwitch' ? [s.event] : []));
  expect(engaged.map((e) => e.engaged)).toEqual([true]);
  expect(engaged[0]?.reason).toMatch(/daily loss .* reached the limit 5/);
});
