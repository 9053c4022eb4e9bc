import { ACCOUNT, d, engine, mark, order, standardBook, T0 } from './engine-support.js';

// A backtest's equity samples read equityParts: the same texts as the balance and position views show.
test('equityParts answers the balance and each open position\'s unrealized PnL exactly as the views show them', () => {
  const { ex } = engine();
  standardBook(ex);
  expect(ex.equityParts(ACCOUNT)).toEqual({ balance: ex.futuresBalance(ACCOUNT).balance, unrealizedPnl: [] });
  for (const [side, qty] of [
    ['BUY', '4'],
    ['SELL', '3'],
  ] as const) {
    const placed = ex.placeOrder(ACCOUNT, order({ side, positionSide: side === 'BUY' ? 'LONG' : 'SHORT', price: d(side === 'BUY' ? '100000.1' : '99999.8'), quantity: d(qty), timeInForce: 'IOC' }));
    expect(placed.ok).toBe(true);
  }
  mark(ex, T0 + 1000, '100321.7');
  const parts = ex.equityParts(ACCOUNT);
  expect(parts.unrealizedPnl).toHaveLength(2);
  expect(parts).toEqual({ balance: ex.futuresBalance(ACCOUNT).balance, unrealizedPnl: ex.positions(ACCOUNT).map((p) => p.unrealizedPnl) });
  expect(parts.unrealizedPnl.some((pnl) => pnl !== '0')).toBe(true);
});

// A flat account's parts are kept with the wallet they came from: a trade that opens and closes a position moves the wallet (fees, PnL).
test('equityParts of a flat account follows its wallet after each change, never an earlier answer', () => {
  const { ex } = engine();
  standardBook(ex);
  const before = ex.equityParts(ACCOUNT);
  expect(ex.equityParts(ACCOUNT)).toEqual(before);
  for (const side of ['BUY', 'SELL'] as const) {
    const placed = ex.placeOrder(ACCOUNT, order({ side, positionSide: 'LONG', price: d(side === 'BUY' ? '100000.1' : '99999.8'), quantity: d('2'), timeInForce: 'IOC' }));
    expect(placed.ok).toBe(true);
  }
  expect(ex.positions(ACCOUNT).filter((p) => p.position !== '0')).toEqual([]);
  const after = ex.equityParts(ACCOUNT);
  expect(after).toEqual({ balance: ex.futuresBalance(ACCOUNT).balance, unrealizedPnl: [] });
  expect(after.balance).not.toBe(before.balance);
});
