import { dec } from '../../src/core/decimal.js';
import { KlineBuilder } from '../../src/backtest/kline-builder.js';
import type { TradePrinted } from '../../src/model/market-events.js';

const T0 = 1_767_225_600_000;
const MIN = 60_000;
const BTC = 'BTC-SWAP-USDT';

function trade(time: number, price: string, qty = '1', symbol = BTC): TradePrinted {
  return { type: 'market.trade', symbol, time, tradeId: `${time}`, price: dec(price), qty: dec(qty), takerSide: 'BUY' };
}

describe('klines built from recorded trades for backtests', () => {
  it('a kline closes once, at its end, with open/high/low/close/volume of its trades', () => {
    const k = new KlineBuilder([{ symbol: BTC, interval: '1m' }]);
    for (const t of [trade(T0 + 1000, '100', '2'), trade(T0 + 20_000, '105'), trade(T0 + 40_000, '98', '3'), trade(T0 + 59_999, '101')]) {
      expect(k.advance(t.time)).toEqual([]);
      k.trade(t);
    }
    const [closed, ...more] = k.advance(T0 + MIN);
    expect(more).toEqual([]);
    expect(closed).toMatchObject({ type: 'market.kline', interval: '1m', closed: true, time: T0 + MIN, openTime: T0, closeTime: T0 + MIN - 1 });
    expect([closed?.open, closed?.high, closed?.low, closed?.close, closed?.volume].map((d) => d?.toFixed())).toEqual(['100', '105', '98', '101', '7']);
    expect(k.advance(T0 + MIN + 5)).toEqual([]);
  });

  it('minutes without trades repeat the last close with volume 0; nothing is published before its end', () => {
    const k = new KlineBuilder([{ symbol: BTC, interval: '1m' }]);
    k.trade(trade(T0 + 10, '100'));
    expect(k.advance(T0 + MIN - 1)).toEqual([]);
    const closed = k.advance(T0 + 3 * MIN + 10);
    expect(closed.map((c) => [c.openTime - T0, c.close.toFixed(), c.volume.toFixed()])).toEqual([
      [0, '100', '1'],
      [MIN, '100', '0'],
      [2 * MIN, '100', '0'],
    ]);
    expect(closed.every((c) => c.time === c.openTime + MIN)).toBe(true);
  });

  it('each symbol and interval has its own series; weeks and months are not built', () => {
    const k = new KlineBuilder([
      { symbol: BTC, interval: '1m' },
      { symbol: BTC, interval: '5m' },
      { symbol: 'ETH-SWAP-USDT', interval: '1m' },
      { symbol: BTC, interval: '1w' },
    ]);
    k.trade(trade(T0 + 10, '100'));
    k.trade(trade(T0 + 20, '4000', '1', 'ETH-SWAP-USDT'));
    const closed = k.advance(T0 + 5 * MIN);
    expect(closed.filter((c) => c.interval === '5m').map((c) => c.symbol)).toEqual([BTC]);
    expect(closed.filter((c) => c.symbol === 'ETH-SWAP-USDT').length).toBe(5);
    expect(closed.some((c) => c.interval === '1w')).toBe(false);
  });
});
