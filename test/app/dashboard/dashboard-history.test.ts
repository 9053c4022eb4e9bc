import { Subject } from 'rxjs';
import { DashboardHistory } from '../../../src/app/control/dashboard/index.js';
import { dec } from '../../../src/core/decimal.js';
import { VirtualClock } from '../../../src/core/virtual-time.js';
import type { Balance } from '../../../src/model/account.js';
import type { BusEvent } from '../../../src/model/bus-events.js';
import type { Fill } from '../../../src/model/orders.js';

/** The dashboard's own memory in virtual time: the feed, the fills per symbol and today's equity curve. */
const DAY = 86_400_000;
const MIDNIGHT = 1_767_225_600_000;

function fill(tradeId: string, clientOrderId: string, time: number): Fill {
  return {
    symbol: 'BTC-SWAP-USDT',
    tradeId,
    orderId: `o${tradeId}`,
    clientOrderId,
    side: 'BUY',
    positionSide: 'LONG',
    price: dec('111000.5'),
    qty: dec(1),
    fee: dec('0.02'),
    feeAsset: 'USDT',
    isMaker: true,
    realizedPnl: dec(0),
    time,
  };
}

function setup(startAt: number): { clock: VirtualClock; bus: Subject<BusEvent>; history: DashboardHistory; wallet: { value: string } } {
  const clock = new VirtualClock(startAt);
  const bus = new Subject<BusEvent>();
  const wallet = { value: '1000' };
  const balances = (): Balance[] => [{ asset: 'USDT', walletBalance: dec(wallet.value), availableBalance: dec(wallet.value), lockedMargin: dec(0), unrealizedPnl: dec('2.5'), updateTime: clock.now() }];
  const history = new DashboardHistory({ events$: bus, clock, scheduler: clock, ownerOf: (id) => (id.startsWith('q-') ? 'quoter-btc' : undefined), balances, feedSize: 3, equityEveryMs: 10_000 });
  history.start();
  return { clock, bus, history, wallet };
}

test('fills reported twice (stream and resync) are kept once, with their owner; the feed is bounded and newest first', () => {
  const { bus, history } = setup(MIDNIGHT);
  bus.next({ type: 'account.fill', source: 'stream', time: 1, fill: fill('1', 'q-1', 1) });
  bus.next({ type: 'account.fill', source: 'rest', time: 2, fill: fill('1', 'q-1', 1) });
  bus.next({ type: 'account.fill', source: 'stream', time: 3, fill: fill('2', 'someone-else', 3) });
  bus.next({
    type: 'intent.denied',
    time: 4,
    strategyId: 'quoter-btc',
    intent: { type: 'place', key: 'k', symbol: 'BTC-SWAP-USDT', side: 'BUY', orderType: 'LIMIT', price: dec(1), quantity: dec(1) },
    denial: { code: 'PRICE_BAND', message: 'too far' },
  });
  bus.next({ type: 'account.fill', source: 'stream', time: 5, fill: fill('3', 'q-3', 5) });

  expect(history.fills('BTC-SWAP-USDT').map((f) => [f.time, f.strategy, f.price])).toEqual([
    [1, 'quoter-btc', '111000.5'],
    [3, 'external', '111000.5'],
    [5, 'quoter-btc', '111000.5'],
  ]);
  expect(history.feed(10).map((f) => [f.kind, f.time])).toEqual([
    ['fill', 5],
    ['denial', 4],
    ['fill', 3],
  ]);
  history.stop();
});

test('the equity curve takes a point every interval on the scheduler, ends with the value now, and starts again at UTC midnight', () => {
  const { clock, history, wallet } = setup(MIDNIGHT + DAY - 30_000);
  clock.advanceBy(20_000);
  wallet.value = '1010';
  const before = history.equityCurve();
  expect(before.asset).toBe('USDT');
  expect(before.points.map((p) => p.value)).toEqual(['1002.5', '1002.5', '1002.5', '1012.5']);
  expect(before.points.at(-1)?.time).toBe(clock.now());

  clock.advanceBy(20_000); // past midnight: yesterday's points go
  const after = history.equityCurve();
  expect(after.points.every((p) => p.time >= MIDNIGHT + DAY)).toBe(true);
  expect(after.points.length).toBe(3); // midnight, ten seconds later, and now

  history.stop();
  clock.advanceBy(60_000);
  expect(history.equityCurve().points.length).toBe(3);
});
