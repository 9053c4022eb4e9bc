import { runBacktest } from '../../src/backtest/runner.js';
import { isAccountEvent, isMarketEvent } from '../../src/model/bus-events.js';
import type { MarketEvent } from '../../src/sim/market-stream/events.js';
import type { LatencyModel } from '../../src/sim/port/port-latency.js';
import { ACCOUNT, BTC, depth, limitBuy, mark, once, scripted, standardMarket, T0, tempDir, trade, writeGenerated, writeRecording } from './backtest-support.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test('a strategy sees each market event at its own time, never before; account events after the ack latency', async () => {
  const file = await writeGenerated(tmp.path('market.jsonl'), 11, 3);
  const watcher = scripted('watcher', (ctx, event, seen) => (event.type === 'market.book' && seen.filter((s) => s.event.type === 'market.book').length === 5 ? [limitBuy(ctx.cache.bestBid(BTC)!.toFixed())] : []));
  const result = await runBacktest({ strategies: [watcher.instance], risk: {}, recordings: [file], account: ACCOUNT });
  if (!result.ok) throw result.error;

  const market = watcher.seen.filter((s) => isMarketEvent(s.event));
  expect(market.length).toBeGreaterThan(500);
  for (const { at, event } of market) expect(at).toBe(event.time);
  const account = watcher.seen.filter((s) => isAccountEvent(s.event));
  expect(account.length).toBeGreaterThan(0);
  for (const { at, event } of account) expect(at - event.time).toBe(50);
  // Delivered in time order: what the strategy knew never came from later than its clock.
  const times = market.map((s) => s.event.time);
  expect([...times].sort((a, b) => a - b)).toEqual(times);
});

test('an order cannot fill on a trade that printed before it reached the exchange', async () => {
  const events: MarketEvent[] = [
    ...standardMarket(),
    // Best bid 99999.8: a buy at 99999.9 has nobody ahead of it.
    depth(
      T0 + 1000,
      [
        ['99999.8', '10'],
        ['99999.7', '10'],
      ],
      [['100000', '2']],
    ),
    trade(T0 + 1010, '99999.9', '1', 'SELL'),
    trade(T0 + 2000, '99999.9', '1', 'SELL'),
    mark(T0 + 3000, '100000'),
  ];
  const file = await writeRecording(tmp.path('before-arrival.jsonl'), events);
  const fillTime = async (latency: LatencyModel): Promise<number | undefined> => {
    const buyer = scripted(`buyer-${latency.orderLatencyMs}`, once(T0 + 1000, limitBuy('99999.9')));
    const result = await runBacktest({ strategies: [buyer.instance], risk: {}, recordings: [file], account: ACCOUNT, latency, tickMs: 0 });
    if (!result.ok) throw result.error;
    expect(buyer.emitted[0]?.at).toBe(T0 + 1000);
    return result.value.fills[0]?.time;
  };
  // Arriving at +50 ms, the order missed the sell at +10 ms and fills on the next one.
  expect(await fillTime({ orderLatencyMs: 50, ackLatencyMs: 50 })).toBe(T0 + 2000);
  // Without latency it was there in time for the first.
  expect(await fillTime({ orderLatencyMs: 0, ackLatencyMs: 0 })).toBe(T0 + 1010);
});
