import { dec } from '../../src/core/decimal.js';
import type { FillRecord } from '../../src/backtest/backtest-types.js';
import { compareFills, formatParityReport } from '../../src/backtest/parity-compare.js';

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

describe('compareFills', () => {
  it('identical within the time tolerance, whatever the ids', () => {
    const report = compareFills([fill(1000, '100'), fill(2000, '101')], [fill(1400, '100', { tradeId: 'x' }), fill(2000, '101.0')], { toleranceMs: 500 });
    expect(report).toMatchObject({ identical: true, liveFills: 2, backtestFills: 2, matched: 2, divergent: 0, divergences: [] });
    expect(formatParityReport(report)).toMatch(/^parity: identical: 2 fills/);
    expect(formatParityReport(report)).not.toContain('why they can differ');
  });

  it('lists the first divergences: differing fields, then fills on one side only', () => {
    const report = compareFills([fill(1000, '100'), fill(2000, '101', { side: 'SELL' })], [fill(1000, '100'), fill(3000, '102'), fill(4000, '103')], { toleranceMs: 500 });
    expect(report.identical).toBe(false);
    expect(report.matched).toBe(1);
    expect(report.divergent).toBe(2);
    expect(report.divergences.map((d) => [d.index, d.kind, d.fields])).toEqual([
      [1, 'mismatch', ['side', 'price', 'time']],
      [2, 'backtest-only', []],
    ]);
    expect(formatParityReport(report)).toContain('#1 differs in side, price, time');
    // A divergence always comes with the known reasons two runs can differ.
    expect(formatParityReport(report)).toContain('why they can differ:');
    expect(compareFills([fill(1, '1')], [], { toleranceMs: 0, limit: 0 })).toMatchObject({ divergent: 1, divergences: [] });
  });
});
