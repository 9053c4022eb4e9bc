import { dec } from '../../../src/core/decimal.js';
import type { OrderSnapshot } from '../../../src/model/orders.js';
import type { FillTicket } from '../../../src/venue/parsers/user-stream-frames.js';
import { Backoff } from '../../../src/venue/stream/backoff.js';
import { FillSides } from '../../../src/venue/stream/fill-sides.js';

describe('Backoff', () => {
  it('doubles from 500 ms up to the 30 s cap; random 0.5 means no jitter; reset starts over', () => {
    const backoff = new Backoff({}, () => 0.5);
    expect(Array.from({ length: 9 }, () => backoff.next())).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    backoff.reset();
    expect(backoff.next()).toBe(500);
  });

  it('jitter spreads each delay by ±20 % by default', () => {
    expect(new Backoff({}, () => 0).next()).toBe(400);
    expect(new Backoff({}, () => 1).next()).toBe(600);
    expect(new Backoff({ initialMs: 100, factor: 3, maxMs: 1000, jitter: 0.5 }, () => 1).next()).toBe(150);
  });

  it('refuses settings that make no sense', () => {
    expect(() => new Backoff({ initialMs: 100, maxMs: 50 })).toThrow(RangeError);
    expect(() => new Backoff({ jitter: 2 })).toThrow(RangeError);
  });
});

function order(orderId: string, positionSide: OrderSnapshot['positionSide'], updateTime = 10, status: OrderSnapshot['status'] = 'FILLED'): OrderSnapshot {
  return { symbol: 'ETH-SWAP-USDT', orderId, clientOrderId: `c-${orderId}`, side: 'SELL', positionSide, type: 'MARKET', timeInForce: 'GTC', price: dec(0), quantity: dec(2), filledQty: dec(2), avgPrice: dec(3000), status, updateTime };
}

function ticket(orderId: string, tradeId: string, clientOrderId = '', time = 11): FillTicket {
  return {
    type: 'stream.ticket',
    time,
    fill: { symbol: 'ETH-SWAP-USDT', tradeId, orderId, clientOrderId, side: 'SELL', price: dec(3000), qty: dec(1), fee: dec(0), feeAsset: '', isMaker: false, realizedPnl: dec(0), time: 9 },
  };
}

describe('FillSides', () => {
  it('a ticket after its order report gets the side (and the client id when the ticket has none)', () => {
    const sides = new FillSides();
    expect(sides.noteOrder(order('1', 'LONG'))).toEqual([]);
    expect(sides.resolve(ticket('1', 't1'))?.fill).toMatchObject({ positionSide: 'LONG', clientOrderId: 'c-1', tradeId: 't1' });
    expect(sides.resolve(ticket('1', 't2', 'own'))?.fill).toMatchObject({ clientOrderId: 'own' });
  });

  it('a ticket before its report waits for it, then comes out in arrival order', () => {
    const sides = new FillSides();
    expect(sides.resolve(ticket('2', 'a'))).toBeUndefined();
    expect(sides.resolve(ticket('2', 'b'))).toBeUndefined();
    expect(sides.waitingCount).toBe(2);
    expect(sides.noteOrder(order('2', 'SHORT')).map((e) => [e.fill.tradeId, e.fill.positionSide])).toEqual([
      ['a', 'SHORT'],
      ['b', 'SHORT'],
    ]);
    expect(sides.waitingCount).toBe(0);
  });

  it('both tables are bounded; dropped tickets are counted', () => {
    const sides = new FillSides(2);
    for (const id of ['1', '2', '3']) sides.resolve(ticket(id, `t${id}`));
    expect(sides.dropped).toBe(1);
    expect(sides.noteOrder(order('1', 'LONG'))).toEqual([]);
    for (const id of ['4', '5']) sides.noteOrder(order(id, 'LONG'));
    // Order 1 was the oldest known order: forgotten, so its next ticket waits again.
    expect(sides.resolve(ticket('1', 'late'))).toBeUndefined();
  });

  it('forgets a finished order five minutes (exchange time) after its last report, an open one never', () => {
    const sides = new FillSides();
    const minute = 60_000;
    sides.noteOrder(order('done', 'LONG', 0));
    sides.noteOrder(order('resting', 'SHORT', 0, 'NEW'));
    sides.noteOrder(order('other', 'LONG', 4 * minute));
    expect(sides.orderCount).toBe(3);
    // A ticket within the grace still finds its order.
    expect(sides.resolve(ticket('done', 'late', '', 4 * minute))?.fill.positionSide).toBe('LONG');
    sides.noteOrder(order('newer', 'LONG', 6 * minute));
    expect(sides.orderCount).toBe(3);
    expect(sides.resolve(ticket('done', 'too-late', '', 6 * minute))).toBeUndefined();
    // The resting order is still open: its next fill's ticket completes at once, hours later.
    expect(sides.resolve(ticket('resting', 'r1', '', 300 * minute))?.fill.positionSide).toBe('SHORT');
  });

  it('a resting order keeps its realized PnL so far across fills hours apart', () => {
    const sides = new FillSides();
    const hour = 3_600_000;
    const execution = (rp: string) => ({ type: 'stream.execution' as const, orderId: 'r', qty: dec(1), fee: dec('0.1'), feeAsset: 'USDT', orderRealizedPnl: dec(rp) });
    sides.noteExecution(execution('5'));
    sides.noteOrder(order('r', 'LONG', 0, 'PARTIALLY_FILLED'));
    expect(sides.resolve(ticket('r', 'f1', '', 0))?.fill.realizedPnl.toString()).toBe('5');
    for (let h = 1; h <= 5; h++) sides.noteOrder(order(`x${h}`, 'LONG', h * hour));
    sides.noteExecution(execution('8'));
    sides.noteOrder(order('r', 'LONG', 5 * hour, 'FILLED'));
    expect(sides.resolve(ticket('r', 'f2', '', 5 * hour))?.fill.realizedPnl.toString()).toBe('3');
  });

  it('a ticket whose order never reports is given up after 15 minutes and counted', () => {
    const sides = new FillSides();
    expect(sides.resolve(ticket('ghost', 'g', '', 0))).toBeUndefined();
    sides.noteOrder(order('a', 'LONG', 14 * 60_000));
    expect(sides.waitingCount).toBe(1);
    sides.noteOrder(order('b', 'LONG', 16 * 60_000));
    expect(sides.waitingCount).toBe(0);
    expect(sides.dropped).toBe(1);
  });
});
