import { dec } from '../../../src/core/decimal.js';
import { InvariantError } from '../../../src/core/errors.js';
import { Cache } from '../../../src/engine/cache.js';
import { crossing, Indicators } from '../../../src/engine/strategy/api-indicators.js';
import type { Indicator } from '../../../src/engine/strategy/api-indicators.js';
import type { Decimal } from '../../../src/core/decimal.js';
import type { KlineInterval, KlineUpdated } from '../../../src/model/market-events.js';

const BTC = 'BTC-SWAP-USDT';
const MINUTE = 60_000;
const T0 = 1_767_225_600_000;

interface Bar {
  readonly o?: string | number;
  readonly h?: string | number;
  readonly l?: string | number;
  readonly c: string | number;
}

/** The i-th 1m kline of BTC (closed unless told), open/high/low default to the close. */
function kline(i: number, bar: Bar, options: { closed?: boolean; symbol?: string; interval?: KlineInterval } = {}): KlineUpdated {
  const openTime = T0 + i * MINUTE;
  return {
    type: 'market.kline',
    symbol: options.symbol ?? BTC,
    time: openTime + MINUTE,
    interval: options.interval ?? '1m',
    openTime,
    closeTime: openTime + MINUTE - 1,
    open: dec(bar.o ?? bar.c),
    high: dec(bar.h ?? bar.c),
    low: dec(bar.l ?? bar.c),
    close: dec(bar.c),
    volume: dec(1),
    closed: options.closed ?? true,
  };
}

function feedCloses(ind: Indicators, closes: ReadonlyArray<string | number>, from = 0): void {
  closes.forEach((c, i) => ind.onEvent(kline(from + i, { c })));
}

const text = (i: Indicator<Decimal>): string | undefined => i.value()?.toFixed();

describe('Indicators: trading-signals behind the strategy API, fed by closed klines, read as decimals', () => {
  test('SMA(3) of closes 1..5: ready at the third kline; value and previous', () => {
    const ind = new Indicators();
    const sma = ind.sma({ symbol: BTC, interval: '1m', period: 3 });
    feedCloses(ind, [1, 2]);
    expect(sma.ready).toBe(false);
    expect(sma.value()).toBeUndefined();
    feedCloses(ind, [3], 2);
    expect(sma.ready).toBe(true);
    expect(text(sma)).toBe('2');
    feedCloses(ind, [4, 5], 3);
    expect(text(sma)).toBe('4');
    expect(sma.previous()?.toFixed()).toBe('3');
    expect(sma.count).toBe(5);
    expect(sma.lastOpenTime).toBe(T0 + 4 * MINUTE);
  });

  test('EMA(3): weight 2/(3+1), seeded with the first close; unstable values stay hidden until period klines', () => {
    const ind = new Indicators();
    const ema = ind.ema({ symbol: BTC, interval: '1m', period: 3 });
    // 1 → 1.5 → 2.25 → 3.125
    feedCloses(ind, [1, 2]);
    expect(ema.value()).toBeUndefined();
    feedCloses(ind, [3], 2);
    expect(text(ema)).toBe('2.25');
    feedCloses(ind, [4], 3);
    expect(text(ema)).toBe('3.125');
    expect(ema.previous()?.toFixed()).toBe('2.25');
  });

  test('RSI(2), Wilder smoothing: 50 after +1 −1, 83.33… after +2', () => {
    const ind = new Indicators();
    const rsi = ind.rsi({ symbol: BTC, interval: '1m', period: 2 });
    feedCloses(ind, [10, 11]);
    expect(rsi.ready).toBe(false);
    feedCloses(ind, [10], 2);
    expect(text(rsi)).toBe('50');
    // gains 0.5 + (2 − 0.5)/2 = 1.25, losses 0.5 + (0 − 0.5)/2 = 0.25: RS 5, RSI 100 − 100/6
    feedCloses(ind, [12], 3);
    expect(text(rsi)).toBe('83.3333333333333');
  });

  test('ATR(2) reads high, low and close: true ranges 4, 4 → 4; then 8 → 6', () => {
    const ind = new Indicators();
    const atr = ind.atr({ symbol: BTC, interval: '1m', period: 2 });
    ind.onEvent(kline(0, { h: 12, l: 8, c: 10 }));
    expect(atr.ready).toBe(false);
    ind.onEvent(kline(1, { h: 13, l: 9, c: 12 })); // max(4, |13−10|, |9−10|) = 4
    expect(text(atr)).toBe('4');
    ind.onEvent(kline(2, { h: 20, l: 14, c: 18 })); // max(6, |20−12|, |14−12|) = 8 → 4 + (8 − 4)/2
    expect(text(atr)).toBe('6');
  });

  test('Bollinger(8, 2) of 2 4 4 4 5 5 7 9: middle 5, σ 2 → 1 and 9; 1σ bands → 3 and 7', () => {
    const ind = new Indicators();
    const two = ind.bollinger({ symbol: BTC, interval: '1m', period: 8 });
    const one = ind.bollinger({ symbol: BTC, interval: '1m', period: 8, deviations: 1 });
    feedCloses(ind, [2, 4, 4, 4, 5, 5, 7]);
    expect(two.ready).toBe(false);
    feedCloses(ind, [9], 7);
    const bands = (b: typeof two): string[] | undefined => {
      const v = b.value();
      return v === undefined ? undefined : [v.lower.toFixed(), v.middle.toFixed(), v.upper.toFixed()];
    };
    expect(bands(two)).toEqual(['1', '5', '9']);
    expect(bands(one)).toEqual(['3', '5', '7']);
  });

  test('a price source other than the close: hl2, ohlc4', () => {
    const ind = new Indicators();
    const hl2 = ind.sma({ symbol: BTC, interval: '1m', period: 1, source: 'hl2' });
    const ohlc4 = ind.sma({ symbol: BTC, interval: '1m', period: 1, source: 'ohlc4' });
    ind.onEvent(kline(0, { o: 10, h: 14, l: 8, c: 12 }));
    expect(text(hl2)).toBe('11');
    expect(text(ohlc4)).toBe('11');
  });

  test('floats come back as clean decimals (0.1 + 0.2 is 0.3 here)', () => {
    const ind = new Indicators();
    const sma = ind.sma({ symbol: BTC, interval: '1m', period: 2 });
    feedCloses(ind, ['0.1', '0.2']);
    expect(text(sma)).toBe('0.15');
    const sum = ind.sma({ symbol: BTC, interval: '1m', period: 1 });
    ind.onEvent(kline(2, { c: '0.30000000000000004' }));
    expect(text(sum)).toBe('0.3');
  });

  test('only closed klines of its own series count, each once: forming, repeated, older, other symbol or interval are ignored', () => {
    const ind = new Indicators();
    const sma = ind.sma({ symbol: BTC, interval: '1m', period: 2 });
    expect(ind.onEvent(kline(0, { c: 100 }, { closed: false }))).toBeUndefined();
    const first = kline(0, { c: 10 });
    expect(ind.onEvent(first)).toBe(first);
    expect(ind.onEvent(first)).toBeUndefined();
    expect(ind.onEvent(kline(1, { c: 1000 }, { symbol: 'ETH-SWAP-USDT' }))).toBeUndefined();
    expect(ind.onEvent(kline(1, { c: 1000 }, { interval: '5m' }))).toBeUndefined();
    expect(ind.onEvent({ type: 'market.markPrice', symbol: BTC, time: T0, price: dec(5) })).toBeUndefined();
    ind.onEvent(kline(2, { c: 20 }));
    ind.onEvent(kline(1, { c: 999 })); // older than the newest applied
    expect(text(sma)).toBe('15');
    expect(sma.count).toBe(2);
  });

  test('the same spec answers the same instance; a different one a new indicator', () => {
    const ind = new Indicators();
    const a = ind.ema({ symbol: BTC, interval: '1m', period: 20 });
    expect(ind.ema({ symbol: BTC, interval: '1m', period: 20, source: 'close' })).toBe(a);
    expect(ind.ema({ symbol: BTC, interval: '1m', period: 21 })).not.toBe(a);
    expect(ind.sma({ symbol: BTC, interval: '1m', period: 20 })).not.toBe(a);
    expect(ind.ema({ symbol: BTC, interval: '5m', period: 20 })).not.toBe(a);
  });

  test('a new indicator warms up from the closed klines the cache holds, then goes on with live events without double counting', () => {
    const cache = new Cache();
    for (const [i, c] of [1, 2, 3].entries()) cache.apply(kline(i, { c }));
    cache.apply(kline(3, { c: 50 }, { closed: false })); // forming: not history
    const ind = new Indicators({ cache });
    const sma = ind.sma({ symbol: BTC, interval: '1m', period: 3 });
    expect(text(sma)).toBe('2');
    ind.onEvent(kline(2, { c: 3 })); // already seen through the cache
    expect(sma.count).toBe(3);
    ind.onEvent(kline(3, { c: 4 }));
    expect(text(sma)).toBe('3');
  });

  test('a bad period or deviation is a bug in the strategy: it throws', () => {
    const ind = new Indicators();
    expect(() => ind.ema({ symbol: BTC, interval: '1m', period: 0 })).toThrow(InvariantError);
    expect(() => ind.atr({ symbol: BTC, interval: '1m', period: 2.5 })).toThrow(InvariantError);
    expect(() => ind.bollinger({ symbol: BTC, interval: '1m', period: 20, deviations: -1 })).toThrow(InvariantError);
  });
});

describe('crossing(a, b)', () => {
  test('the close (SMA 1) over SMA(3): up when it goes from at/below to above, down the other way, nothing in between', () => {
    const ind = new Indicators();
    const fast = ind.sma({ symbol: BTC, interval: '1m', period: 1 });
    const slow = ind.sma({ symbol: BTC, interval: '1m', period: 3 });
    const seen: Array<string | undefined> = [];
    [10, 9, 8, 7, 9, 12, 13, 11, 8, 7].forEach((c, i) => {
      ind.onEvent(kline(i, { c }));
      seen.push(crossing(fast, slow));
    });
    // SMA(3) from kline 2: 9, 8, 8, 9.33, 11.33, 12, 10.67, 8.67; the close goes above at kline 4 (9 > 8), below at 7 (11 < 12).
    expect(seen).toEqual([undefined, undefined, undefined, undefined, 'up', undefined, undefined, 'down', undefined, undefined]);
  });

  test('no crossing while either is not ready, or when they were fed different klines', () => {
    const ind = new Indicators();
    const a = ind.sma({ symbol: BTC, interval: '1m', period: 1 });
    const b = ind.sma({ symbol: 'ETH-SWAP-USDT', interval: '1m', period: 1 });
    ind.onEvent(kline(0, { c: 1 }));
    ind.onEvent(kline(0, { c: 2 }, { symbol: 'ETH-SWAP-USDT' }));
    ind.onEvent(kline(1, { c: 3 }));
    ind.onEvent(kline(2, { c: 1 }, { symbol: 'ETH-SWAP-USDT' }));
    expect(crossing(a, b)).toBeUndefined();
  });
});
