import { EventSelection } from '../../../src/app/notify/event-selection.js';
import { dec } from '../../../src/core/decimal.js';
import type { BusEvent } from '../../../src/model/bus-events.js';
import type { Fill } from '../../../src/model/orders.js';

/** Which kernel events become notifications, and what the stateful ones (storm, day, kill switch) remember. */
const T0 = 1_767_225_600_000;
const MIN = 60_000;

function fill(tradeId: string, extra: Partial<Fill> = {}): Fill {
  return {
    symbol: 'BTC-SWAP-USDT',
    tradeId,
    orderId: '9007199254740993',
    clientOrderId: 'probe-1',
    side: 'SELL',
    positionSide: 'LONG',
    price: dec('97000.5'),
    qty: dec('2'),
    fee: dec('0.1'),
    feeAsset: 'USDT',
    isMaker: false,
    realizedPnl: dec('3.25'),
    time: T0,
    ...extra,
  };
}

const fillEvent = (f: Fill, source: 'stream' | 'rest' = 'stream'): BusEvent => ({ type: 'account.fill', source, time: f.time, fill: f });
const disconnect = (time: number): BusEvent => ({ type: 'stream.disconnected', time, reason: 'socket closed 1006' });

describe('event selection', () => {
  it('a fill once, even when a resync reports the same trade again', () => {
    const s = new EventSelection({ count: 3, withinMs: 10 * MIN }, T0, false);
    const [first] = s.select(fillEvent(fill('t1')));
    expect(first).toMatchObject({ event: 'fill', title: 'Fill: SELL 2 BTC-SWAP-USDT @ 97000.5', data: { orderId: '9007199254740993', realizedPnl: '3.25', fee: '0.1' } });
    expect(first?.text).toBe('Fill: SELL 2 BTC-SWAP-USDT @ 97000.5\ntaker, fee 0.1 USDT, realized PnL 3.25\norder probe-1 (LONG), trade t1');
    expect(s.select(fillEvent(fill('t1'), 'rest'))).toEqual([]);
    expect(s.select(fillEvent(fill('t2')))).toHaveLength(1);
  });

  it('the kill switch only when it changes (a daily reset that leaves it off says nothing)', () => {
    const s = new EventSelection({ count: 3, withinMs: 10 * MIN }, T0, false);
    const ks = (engaged: boolean, reason: string): BusEvent => ({ type: 'risk.killSwitch', time: T0, engaged, reason, dayPnl: dec('-40') });
    expect(s.select(ks(false, 'new day'))).toEqual([]);
    expect(s.select(ks(true, 'daily loss limit')).map((n) => n.title)).toEqual(['Kill switch ENGAGED: daily loss limit']);
    expect(s.select(ks(true, 'daily loss limit'))).toEqual([]);
    expect(s.select(ks(false, 'reset by hand')).map((n) => n.title)).toEqual(['Kill switch released: opening orders allowed again']);
    // Engaged at start (a halt kept across a restart): its release is the news.
    expect(new EventSelection({ count: 3, withinMs: MIN }, T0, true).select(ks(true, 'halt'))).toEqual([]);
  });

  it('a strategy stopped or failed; at shutdown only failures', () => {
    const s = new EventSelection({ count: 3, withinMs: MIN }, T0, false);
    const stopped = (failed: boolean): BusEvent => ({ type: 'strategy.stopped', time: T0, strategyId: 'mm-btc', reason: failed ? 'TypeError: x is undefined' : 'stopped by operator', failed });
    expect(s.select(stopped(false)).map((n) => [n.event, n.title])).toEqual([['strategyStopped', 'Strategy mm-btc stopped']]);
    expect(s.select(stopped(true)).map((n) => [n.event, n.title, n.text])).toEqual([['strategyFailed', 'Strategy mm-btc FAILED', 'Strategy mm-btc FAILED\nTypeError: x is undefined']]);
    s.daemonStopping();
    expect(s.select(stopped(false))).toEqual([]);
    expect(s.select(stopped(true))).toHaveLength(1);
  });

  it('a reconnect storm: `count` disconnects within the window, once; the next storm needs as many again', () => {
    const s = new EventSelection({ count: 3, withinMs: 10 * MIN }, T0, false);
    expect(s.select(disconnect(T0))).toEqual([]);
    expect(s.select(disconnect(T0 + 6 * MIN))).toEqual([]);
    // The first one has left the window by now.
    expect(s.select(disconnect(T0 + 11 * MIN))).toEqual([]);
    const storm = s.select(disconnect(T0 + 12 * MIN));
    expect(storm.map((n) => [n.event, n.title])).toEqual([['reconnectStorm', 'User stream reconnect storm: 3 disconnects within 10 min']]);
    expect(s.select(disconnect(T0 + 13 * MIN))).toEqual([]);
    expect(s.select(disconnect(T0 + 14 * MIN))).toEqual([]);
    expect(s.select(disconnect(T0 + 15 * MIN))).toHaveLength(1);
  });

  it('the daily summary when the daily reset job has run: the figures since the last one, then a new day', () => {
    const s = new EventSelection({ count: 3, withinMs: MIN }, T0, false);
    s.select(fillEvent(fill('t1')));
    s.select(fillEvent(fill('t2', { symbol: 'ETH-SWAP-USDT', realizedPnl: dec('-1'), fee: dec('0.05') })));
    s.select({ type: 'risk.killSwitch', time: T0, engaged: true, reason: 'x', dayPnl: dec(0) });
    s.select(disconnect(T0));
    const reset = (time: number, ok = true): BusEvent => ({ type: 'job.finished', time, job: 'dailyReset', ok, detail: '' });
    expect(s.select({ type: 'job.finished', time: T0, job: 'reconcile', ok: true, detail: '' })).toEqual([]);
    expect(s.select(reset(T0 + 3_600_000, false))).toEqual([]);
    const [summary] = s.select(reset(T0 + 24 * 3_600_000));
    expect(summary?.text).toBe(
      'Daily summary (last 24 h): 2 fills, realized PnL 2.25\nfills: BTC-SWAP-USDT 1, ETH-SWAP-USDT 1\nfees: 0.15 USDT\nkill switch engaged 1x, strategy failures 0, user-stream disconnects 1',
    );
    expect(s.select(reset(T0 + 48 * 3_600_000))[0]?.title).toBe('Daily summary (last 24 h): 0 fills, realized PnL 0');
  });

  test('a position lost without an own fill becomes one positionLost message with its figures', () => {
    const s = new EventSelection({ count: 3, withinMs: MIN }, T0, false);
    const lost: BusEvent = { type: 'ledger.positionLost', time: T0, strategyId: 'grid-btc', symbol: 'BTC-SWAP-USDT', positionSide: 'LONG', cause: 'liquidation', qty: dec('6'), price: dec('98100.5'), remaining: dec('0'), clientOrderId: 'liquidation-7' };
    const [message, ...rest] = s.select(lost);
    expect(rest).toEqual([]);
    expect(message?.event).toBe('positionLost');
    expect(message?.title).toBe('Position LOST (liquidation): grid-btc 6 BTC-SWAP-USDT LONG @ 98100.5');
    expect(message?.data).toMatchObject({ strategy: 'grid-btc', cause: 'liquidation', qty: '6', remaining: '0', clientOrderId: 'liquidation-7' });
  });
});
