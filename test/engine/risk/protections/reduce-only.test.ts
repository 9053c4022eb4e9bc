import { runBacktest } from '../../../../src/backtest/runner.js';
import { ACCOUNT, scripted, T0, tempDir, writeRecording } from '../../../backtest/backtest-support.js';
import { buy, denials, market, plan, protectionEvents, restingBuy, sell } from './protection-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test('reduce-only: two losing exits within the window cancel the resting entry and deny entries; exits still go', async () => {
  // Bought at 100000, sold at 99000 and 98000: two losing exits.
  const prices: ReadonlyArray<readonly [number, number]> = [
    [0, 100_000],
    [1, 100_000],
    [2, 99_000],
    [3, 98_000],
    [4, 98_000],
    [5, 98_000],
  ];
  const file = await writeRecording(tmp.path('streak.jsonl'), prices.flatMap(([s, p]) => market(T0 + s * 1000, p)));
  const trader = scripted(
    'trader',
    plan([
      [T0 + 1000, buy('3')],
      [T0 + 1000, restingBuy('90000', 'dip')],
      [T0 + 2000, sell('1')],
      [T0 + 3000, sell('1')],
      [T0 + 4000, buy('1')],
      [T0 + 5000, sell('1')],
    ]),
  );
  const result = await runBacktest({
    strategies: [trader.instance],
    risk: { protections: [{ kind: 'stopLossStreak', name: 'streak', action: 'reduce-only', scope: 'strategy', count: 2, windowMs: 600_000 }] },
    recordings: [file],
    account: ACCOUNT,
    tickMs: 0,
  });
  if (!result.ok) throw result.error;
  expect(result.value.fills.map((f) => [f.side, f.qty.toFixed(), Math.floor((f.time - T0) / 1000)])).toEqual([
    ['BUY', '3', 1],
    ['SELL', '1', 2],
    ['SELL', '1', 3],
    ['SELL', '1', 5],
  ]);
  expect(denials(trader.seen).map(([at, code]) => [Math.floor((at - T0) / 1000), code])).toEqual([[4, 'PROTECTION']]);
  expect(result.value.orders.find((o) => o.order.clientOrderId.endsWith('dip'))?.order.status).toBe('CANCELED');
  // No resume time: the trip holds until an operator resumes.
  expect(protectionEvents(trader.seen).map((c) => [c.protection, c.tripped, c.action, c.resumeAt])).toEqual([['streak', true, 'reduce-only', undefined]]);
});
