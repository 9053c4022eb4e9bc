import { KlineBuilder } from '../../src/backtest/kline-builder.js';
import type { KlinePrint } from '../../src/backtest/kline-builder.js';

const T0 = 1_767_225_600_000;
const MIN = 60_000;
const BTC = 'BTC-SWAP-USDT';

function trade(ts: number, price: string, qty = '1', symbol = BTC): KlinePrint {
  return { symbol, ts, price, qty };
}

describe('klines built from recorded trades for backtests', () => {
  it('a kline closes once, at its end, with open/high/low/close/volume of its trades', () => {
    const k = new KlineBuilder([{ symbol: BTC, interval: '1m' }]);
    for (const t of [trade(T0 + 1000, '100', '2'), trade(T0 + 20_000, '105'), trade(T0 + 40_000, '98', '3'), trade(T0 + 59_999, '101')]) {
      expect(k.advance(t.ts)).toEqual([]);
      k.trade(t);
    }
    const [closed, ...more] = k.advance(T0 + MIN);
    expect(more).toEqual([]);
    expect(closed).toMatchObject({ type: 'market.kline', interval: '1m', closed: true, time: T0 + MIN, openTime: T0, closeTime: T0 + MIN - 1 });
    expect([closed?.open, closed?.high, closed?.low, closed?.close, closed?.volume].map((d) => d?.toFixed())).toEqual(['100', '105', '98', '101', '7']);
    expect(k.advance(T0 + MIN + 5)).toEqual([]);
  });

  it('prints without a quantity (mark prices) move the prices and add no volume', () => {
    const k = new KlineBuilder([{ symbol: BTC, interval: '1m' }]);
    k.trade({ symbol: BTC, ts: T0 + 10, price: '100' });
    k.trade({ symbol: BTC, ts: T0 + 20, price: '99.5' });
    k.trade(trade(T0 + 30, '100.25', '2'));
    const [closed] = k.advance(T0 + MIN);
    expect([closed?.open, closed?.high, closed?.low, closed?.close, closed?.volume].map((d) => d?.toFixed())).toEqual(['100', '100.25', '99.5', '100.25', '2']);
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

  it('prices compare by value whatever their zeros, and volumes of quantities with different decimals sum exactly', () => {
    const k = new KlineBuilder([{ symbol: BTC, interval: '1m' }]);
    const prints = [trade(T0 + 1, '0100.50', '0.25'), trade(T0 + 2, '100.5', '2'), trade(T0 + 3, '99.95', '0.125'), trade(T0 + 4, '100.500', '1.5'), trade(T0 + 5, '100.4999999999999999999', '0.0000000001')];
    for (const t of prints) k.trade(t);
    const [closed] = k.advance(T0 + MIN);
    expect([closed?.open, closed?.high, closed?.low, closed?.close, closed?.volume].map((d) => d?.toFixed())).toEqual(['100.5', '100.5', '99.95', '100.4999999999999999999', '3.8750000001']);
  });

  it('a volume beyond 2^53 of its smallest unit is still exact', () => {
    const k = new KlineBuilder([{ symbol: BTC, interval: '1m' }]);
    k.trade(trade(T0 + 1, '100', '9007199254740991'));
    k.trade(trade(T0 + 2, '100', '2.5'));
    k.trade(trade(T0 + 3, '100', '0.05'));
    const [closed] = k.advance(T0 + MIN);
    expect(closed?.volume.toFixed()).toBe('9007199254740993.55');
  });
  it('prices given with their ticks build the same klines as their text alone, also across grids, bars of text and prints without ticks', () => {
    const text = new KlineBuilder([{ symbol: BTC, interval: '1m' }]);
    const ticked = new KlineBuilder([{ symbol: BTC, interval: '1m' }]);
    const tenths = { step: '0.1' };
    const hundredths = { step: '0.01' };
    let seed = 11;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const closed: string[][] = [[], []];
    for (let i = 0; i < 3000; i++) {
      const ts = T0 + i * 7_000 + (next() % 5000);
      const tenthsOfPrice = 1000 + (next() % 41) - 20 + Math.floor(i / 50);
      // Equal values in other text now and then ('100.0' for '100'), and a print's ticks on a finer grid, or none.
      const price = next() % 9 === 0 ? (tenthsOfPrice / 10).toFixed(2) : String(tenthsOfPrice / 10);
      const kind = next() % 10;
      const print = trade(ts, price, String(1 + (next() % 3)));
      for (const [n, k] of [text, ticked].entries()) closed[n]!.push(...k.advance(ts).map((c) => JSON.stringify(c)));
      text.trade(print);
      if (kind === 0) ticked.trade(print);
      else if (kind === 1) ticked.trade(print, tenthsOfPrice * 10, hundredths);
      else ticked.trade(print, tenthsOfPrice, tenths);
    }
    const end = T0 + 3000 * 7_000 + 2 * MIN;
    for (const [n, k] of [text, ticked].entries()) closed[n]!.push(...k.advance(end).map((c) => JSON.stringify(c)));
    expect(closed[0]!.length).toBeGreaterThan(300);
    expect(closed[1]).toEqual(closed[0]);
  });
});
