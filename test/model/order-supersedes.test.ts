import { dec } from '../../src/core/decimal.js';
import type { OrderSnapshot } from '../../src/model/orders.js';
import { supersedes } from '../../src/model/orders.js';

const base: OrderSnapshot = {
  symbol: 'BTC-SWAP-USDT',
  orderId: '1',
  clientOrderId: 'mm-1',
  side: 'SELL',
  positionSide: 'LONG',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price: dec('111271.2'),
  quantity: dec(1),
  filledQty: dec(0),
  avgPrice: dec(0),
  status: 'NEW',
  updateTime: 1000,
};

describe('supersedes: which of two reports of one order is the newer', () => {
  it('a later exchange time wins, an earlier one never does', () => {
    expect(supersedes(base, { ...base, updateTime: 1001, quantity: dec(2) })).toBe(true);
    expect(supersedes({ ...base, updateTime: 1001 }, { ...base, quantity: dec(2) })).toBe(false);
  });

  it('in one millisecond: more progress wins, less never does, an identical report is no news', () => {
    expect(supersedes(base, { ...base, status: 'PARTIALLY_FILLED', filledQty: dec('0.5') })).toBe(true);
    expect(supersedes({ ...base, status: 'PARTIALLY_FILLED', filledQty: dec('0.5') }, { ...base, quantity: dec(2) })).toBe(false);
    expect(supersedes({ ...base, filledQty: dec('0.5') }, { ...base, filledQty: dec('0.25') })).toBe(false);
    expect(supersedes(base, { ...base })).toBe(false);
  });

  it('in one millisecond: an amendment (another quantity or price, same progress) wins', () => {
    expect(supersedes(base, { ...base, quantity: dec(2) })).toBe(true);
    expect(supersedes(base, { ...base, price: dec('111300') })).toBe(true);
  });

  it('a final state is never replaced', () => {
    expect(supersedes({ ...base, status: 'CANCELED' }, { ...base, updateTime: 2000, status: 'NEW' })).toBe(false);
  });
});
