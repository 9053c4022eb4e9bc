import { dec } from '../../src/core/decimal.js';
import type { FillRecord, OrderRow } from '../../src/backtest/types.js';
import type { OrderSnapshot } from '../../src/model/orders.js';
import { compareRuns, compareSequences, fillRow, formatParityReport } from '../../src/parity/compare.js';

function fill(time: number, price: string, over: Partial<FillRecord> = {}): FillRecord {
  return {
    time,
    strategy: 's1',
    symbol: 'BTC-SWAP-USDT',
    clientOrderId: `c${time}`,
    orderId: `o${time}`,
    tradeId: `t${time}`,
    side: 'BUY',
    positionSide: 'LONG',
    isClose: false,
    isMaker: true,
    price: dec(price),
    qty: dec(1),
    fee: dec(0),
    feeAsset: 'USDT',
    realizedPnl: dec(0),
    ...over,
  };
}

function order(createTime: number, price: string, over: Partial<OrderSnapshot> = {}): OrderRow {
  const f = fill(createTime, price);
  const snapshot: OrderSnapshot = {
    symbol: f.symbol,
    orderId: f.orderId,
    clientOrderId: f.clientOrderId,
    side: f.side,
    positionSide: f.positionSide,
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: f.price,
    quantity: dec(2),
    filledQty: dec(0),
    avgPrice: dec(0),
    status: 'NEW',
    updateTime: createTime,
    ...over,
  };
  return { createTime, strategy: 's1', order: snapshot };
}

describe('compareSequences', () => {
  it('identical within the time tolerance, whatever the ids', () => {
    const report = compareSequences([fill(1000, '100'), fill(2000, '101')].map(fillRow), [fill(1400, '100', { tradeId: 'x' }), fill(2000, '101.0')].map(fillRow), { toleranceMs: 500 });
    expect(report).toMatchObject({ identical: true, live: 2, backtest: 2, matched: 2, divergent: 0, divergences: [] });
  });

  it('lists the first divergences: differing fields, then rows on one side only', () => {
    const report = compareSequences([fill(1000, '100'), fill(2000, '101', { side: 'SELL' })].map(fillRow), [fill(1000, '100'), fill(3000, '102'), fill(4000, '103')].map(fillRow), { toleranceMs: 500 });
    expect(report.identical).toBe(false);
    expect(report.matched).toBe(1);
    expect(report.divergent).toBe(2);
    expect(report.divergences.map((d) => [d.index, d.kind, d.fields])).toEqual([
      [1, 'mismatch', ['side', 'price', 'time']],
      [2, 'backtest-only', []],
    ]);
    expect(compareSequences([fillRow(fill(1, '1'))], [], { toleranceMs: 0, limit: 0 })).toMatchObject({ divergent: 1, divergences: [] });
  });
});

describe('compareRuns', () => {
  it('identical when fills and order placements agree', () => {
    const report = compareRuns({ fills: [fill(1000, '100')], orders: [order(900, '100')] }, { fills: [fill(1000, '100')], orders: [order(900, '100', { status: 'FILLED' })] }, { toleranceMs: 0 });
    expect(report.identical).toBe(true);
    expect(formatParityReport(report)).toMatch(/^parity: identical: 1 fills and 1 orders on both sides/);
    expect(formatParityReport(report)).not.toContain('why they can differ');
  });

  it('an order placed at another price diverges even without fills; the report lists it and the known causes', () => {
    const report = compareRuns({ fills: [], orders: [order(900, '100')] }, { fills: [], orders: [order(900, '99.5')] }, { toleranceMs: 0 });
    expect(report.identical).toBe(false);
    expect(report.fills.identical).toBe(true);
    expect(report.orders.divergences.map((d) => d.fields)).toEqual([['price']]);
    const text = formatParityReport(report);
    expect(text).toMatch(/^parity: DIVERGENT/);
    expect(text).toContain('orders placed: paper 1, backtest 1; first 0 agree, 1 positions differ');
    expect(text).toContain('#0 differs in price');
    expect(text).toContain('why they can differ:');
  });
});
