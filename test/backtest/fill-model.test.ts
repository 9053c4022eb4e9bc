import { runBacktest } from '../../src/backtest/runner.js';
import type { BacktestResult } from '../../src/backtest/runner.js';
import type { MarketEvent } from '../../src/sim/market-stream/events.js';
import type { LatencyModel } from '../../src/sim/port/port-latency.js';
import type { Scripted } from './backtest-support.js';
import { ACCOUNT, depth, limitBuy, marketBuy, mark, once, scripted, standardMarket, T0, tempDir, trade, writeRecording } from './backtest-support.js';

/** The fill model is the engine's: these check it holds through the kernel, the port's latency and the replay. */

const tmp = tempDir();
afterAll(() => tmp.remove());

/** The standard book again at `ts`: strategies start a few hundred virtual ms in, and act on a book seen after that. */
const book = (ts: number): MarketEvent =>
  depth(
    ts,
    [
      ['99999.9', '5'],
      ['99999.8', '10'],
    ],
    [
      ['100000', '2'],
      ['100000.1', '3'],
      ['100000.5', '50'],
    ],
  );

async function backtest(name: string, events: readonly MarketEvent[], strategy: Scripted, latency?: LatencyModel): Promise<BacktestResult> {
  const file = await writeRecording(tmp.path(`${name}.jsonl`), events);
  const result = await runBacktest({ strategies: [strategy.instance], risk: {}, recordings: [file], account: ACCOUNT, tickMs: 0, ...(latency === undefined ? {} : { latency }) });
  if (!result.ok) throw result.error;
  return result.value;
}

test('a buy below every price the market traded at never fills, however long it rests', async () => {
  const events: MarketEvent[] = [...standardMarket(), book(T0 + 1000)];
  for (let s = 2; s <= 60; s++) {
    events.push(trade(T0 + s * 1000, s % 2 === 0 ? '99999.9' : '100000', '3', s % 2 === 0 ? 'SELL' : 'BUY'));
    if (s % 10 === 0) events.push(book(T0 + s * 1000), mark(T0 + s * 1000, '100000'));
  }
  const buyer = scripted('deep-bid', once(T0 + 1000, limitBuy('99990')));
  const result = await backtest('never-traded', events, buyer);

  expect(buyer.emitted).toHaveLength(1);
  expect(result.fills).toEqual([]);
  expect(result.orders).toHaveLength(1);
  expect(result.orders[0]).toMatchObject({ strategy: 'deep-bid', order: { status: 'NEW' } });
  expect(result.orders[0]?.order.filledQty.toFixed()).toBe('0');
  expect(result.summary.total.fills).toBe(0);
});

test('a buy resting behind a visible queue fills only once trades at its price have used that queue up', async () => {
  const events: MarketEvent[] = [
    ...standardMarket(),
    book(T0 + 1000),
    // 5 contracts are bid at 99999.9 ahead of ours: sells print 3, then 2, then 1 there.
    trade(T0 + 2000, '99999.9', '3', 'SELL'),
    trade(T0 + 3000, '99999.9', '2', 'SELL'),
    trade(T0 + 4000, '99999.9', '1', 'SELL'),
    trade(T0 + 5000, '99999.9', '1', 'SELL'),
  ];
  const buyer = scripted('queued', once(T0 + 1000, limitBuy('99999.9')));
  const result = await backtest('queue', events, buyer);

  expect(result.fills).toHaveLength(1);
  expect(result.fills[0]).toMatchObject({ time: T0 + 4000, strategy: 'queued', side: 'BUY', positionSide: 'LONG', isMaker: true });
  expect(result.fills[0]?.price.toFixed()).toBe('99999.9');
  expect(result.fills[0]?.qty.toFixed()).toBe('1');
});

test('the order latency delays a fill by exactly the configured time; the ack latency delays what the strategy learns', async () => {
  const events: MarketEvent[] = [...standardMarket(), book(T0 + 1000), mark(T0 + 5000, '100000')];
  const fillTimes: number[] = [];
  for (const latency of [
    { orderLatencyMs: 50, ackLatencyMs: 50 },
    { orderLatencyMs: 250, ackLatencyMs: 120 },
  ]) {
    const buyer = scripted(`taker-${latency.orderLatencyMs}`, once(T0 + 1000, marketBuy('1')));
    const result = await backtest(`latency-${latency.orderLatencyMs}`, events, buyer, latency);
    const emittedAt = buyer.emitted[0]?.at;
    expect(emittedAt).toBe(T0 + 1000);
    expect(result.fills).toHaveLength(1);
    const fill = result.fills[0]!;
    expect(fill.time - emittedAt!).toBe(latency.orderLatencyMs);
    expect(fill.isMaker).toBe(false);
    expect(fill.price.toFixed()).toBe('100000');
    const told = buyer.seen.find((s) => s.event.type === 'account.fill');
    expect(told?.at).toBe(fill.time + latency.ackLatencyMs);
    fillTimes.push(fill.time);
  }
  expect(fillTimes[1]! - fillTimes[0]!).toBe(200);
});
