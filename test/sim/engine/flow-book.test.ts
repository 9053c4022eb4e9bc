import { FlowBook } from '../../../src/sim/engine/ledger.js';
import { IdSequence } from '../../../src/sim/engine/ids.js';
import type { FlowKind } from '../../../src/sim/engine/types.js';
import { d, T0 } from './engine-support.js';

function book(maxRows = Infinity): FlowBook {
  return new FlowBook(new IdSequence('5398'), maxRows);
}

function record(flows: FlowBook, kind: FlowKind, time: number, change = '1'): void {
  flows.record({ userId: '100', accountId: '9', accountType: 'FUTURES', category: 'USDT', coin: 'USDT', kind, symbol: 'BTC-SWAP-USDT', change: d(change), total: d('1000'), time });
}

describe('balance flows by kind', () => {
  test('a query of one kind answers that kind only, newest first, within the time range and limit', () => {
    const flows = book();
    const kinds: FlowKind[] = ['FEE', 'FUNDING', 'REALIZED_PNL', 'FUNDING', 'FEE', 'FUNDING'];
    kinds.forEach((kind, i) => record(flows, kind, T0 + i));
    const funding = flows.query({ userId: '100', accountType: 'FUTURES', category: 'USDT', kind: 'FUNDING', limit: 10 });
    expect(funding.map((r) => [r.kind, r.created])).toEqual([
      ['FUNDING', T0 + 5],
      ['FUNDING', T0 + 3],
      ['FUNDING', T0 + 1],
    ]);
    expect(flows.query({ userId: '100', kind: 'FUNDING', startTime: T0 + 2, endTime: T0 + 4, limit: 10 }).map((r) => r.created)).toEqual([T0 + 3]);
    expect(flows.query({ userId: '100', kind: 'FEE', limit: 1 }).map((r) => r.created)).toEqual([T0 + 4]);
    expect(flows.query({ userId: '100', kind: 'LIQUIDATION', limit: 10 })).toEqual([]);
    expect(flows.query({ userId: '100', limit: 10 }).map((r) => r.kind)).toEqual([...kinds].reverse());
  });

  test('rows past the count or the age leave the kind queries too', () => {
    const flows = book(3);
    (['FUNDING', 'FEE', 'FUNDING', 'FEE', 'FEE'] as const).forEach((kind, i) => record(flows, kind, T0 + i));
    expect(flows.size).toBe(3);
    expect(flows.query({ userId: '100', kind: 'FUNDING', limit: 10 }).map((r) => r.created)).toEqual([T0 + 2]);
    flows.purge(T0 + 3);
    expect(flows.query({ userId: '100', kind: 'FUNDING', limit: 10 })).toEqual([]);
    expect(flows.query({ userId: '100', kind: 'FEE', limit: 10 }).map((r) => r.created)).toEqual([T0 + 4, T0 + 3]);
  });
});
