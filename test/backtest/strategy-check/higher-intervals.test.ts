import { runBacktest } from '../../../src/backtest/runner.js';
import { ACCOUNT, BTC, scripted, tempDir, writeGenerated } from '../backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

const MIN = 60_000;

test('in a backtest a strategy reads 1m, 5m and 15m klines only once closed, each interval aligned to its own grid, the newest ended at or before its clock', async () => {
  const file = await writeGenerated(tmp.path('market.jsonl'), 31, 33);
  const problems: string[] = [];
  const newest5m: number[] = [];
  const reader = scripted('reader', (ctx, event) => {
    const now = ctx.clock.now();
    if (event.type === 'market.kline') {
      const ms = { '1m': MIN, '5m': 5 * MIN, '15m': 15 * MIN }[event.interval as '1m' | '5m' | '15m'];
      if (!event.closed || event.openTime % ms !== 0 || event.closeTime !== event.openTime + ms - 1 || event.closeTime >= now) problems.push(`${event.interval} ${event.openTime} seen at ${now}`);
    }
    for (const interval of ['1m', '5m', '15m'] as const) {
      const last = ctx.cache.klines(BTC, interval).at(-1);
      if (last !== undefined && (!last.closed || last.closeTime >= now)) problems.push(`cache ${interval} ${last.openTime} at ${now}`);
    }
    if (event.type === 'market.book') newest5m.push(ctx.cache.klines(BTC, '5m').at(-1)?.openTime ?? 0);
    return [];
  });
  const result = await runBacktest({
    strategies: [reader.instance],
    risk: {},
    recordings: [file],
    account: ACCOUNT,
    klines: ['1m', '5m', '15m'].map((interval) => ({ symbol: BTC, interval: interval as '1m' | '5m' | '15m' })),
  });
  if (!result.ok) throw result.error;
  expect(problems).toEqual([]);
  const counts = new Map<string, number>();
  for (const { event } of reader.seen) if (event.type === 'market.kline') counts.set(event.interval, (counts.get(event.interval) ?? 0) + 1);
  // 33 minutes: the first minute's klines form from the first trade, the last (partial) ones never close.
  expect(counts.get('1m')).toBeGreaterThanOrEqual(31);
  expect(counts.get('5m')).toBe(6);
  expect(counts.get('15m')).toBe(2);
  // Within a 5-minute interval the strategy's newest 5m kline stays the one that closed at its start.
  expect(new Set(newest5m).size).toBeLessThanOrEqual(7);
});
