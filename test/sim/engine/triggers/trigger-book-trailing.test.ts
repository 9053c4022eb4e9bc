import { TriggerBook, type PriceSource, type TrailingCallback, type TrailingTriggerSpec, type TriggerDirection } from '../../../../src/sim/engine/triggers/index.js';
import { InvariantError } from '../../../../src/core/errors.js';

const BTC = 'BTC-SWAP-USDT';

function trailing(direction: TriggerDirection, activeTicks: number, callback: TrailingCallback, source: PriceSource = 'CONTRACT_PRICE'): TrailingTriggerSpec {
  return { kind: 'TRAILING', symbol: BTC, source, direction, activeTicks, callback };
}
const rate = (rateE8: number): TrailingCallback => ({ type: 'RATE', rateE8 });
const distance = (ticks: number): TrailingCallback => ({ type: 'PRICE', ticks });

/** After each price: fired?, activeStatus, extreme, level (the last three from the final state when it fired). */
type Step = readonly [price: number, fired: boolean, activeStatus: 0 | 1, extreme: number | undefined, level: number | undefined];

function trace(book: TriggerBook, prices: readonly number[]): Step[] {
  return prices.map((price) => {
    const fired = book.onPrice(BTC, 'CONTRACT_PRICE', price).includes('t');
    const state = fired ? book.firedState('t') : book.get('t');
    if (state?.kind !== 'TRAILING') throw new Error('no trailing state');
    return [price, fired, state.activeStatus, state.extremeTicks, state.levelTicks];
  });
}

describe('TriggerBook: trailing stops', () => {
  it.each<[string, TrailingTriggerSpec, number | undefined, Step[]]>([
    [
      'SELL by rate 1%, activation 1000',
      trailing('FALLING', 1000, rate(1_000_000)),
      undefined,
      [
        [990, false, 0, undefined, undefined],
        [999, false, 0, undefined, undefined],
        [1000, false, 1, 1000, 990],
        [1005, false, 1, 1005, 994], // 994.95 → 994
        [1003, false, 1, 1005, 994],
        [995, false, 1, 1005, 994],
        [994, true, 1, 1005, 994],
      ],
    ],
    [
      'SELL by rate 1%, activation 0, starting from the last price',
      trailing('FALLING', 0, rate(1_000_000)),
      2000,
      [
        [1990, false, 1, 2000, 1980],
        [2100, false, 1, 2100, 2079],
        [2080, false, 1, 2100, 2079],
        [2000, true, 1, 2100, 2079],
      ],
    ],
    [
      'SELL by 10 ticks, activation 0, before any price',
      trailing('FALLING', 0, distance(10)),
      undefined,
      [
        [1000, false, 1, 1000, 990],
        [1020, false, 1, 1020, 1010],
        [1011, false, 1, 1020, 1010],
        [1010, true, 1, 1020, 1010],
      ],
    ],
    [
      'SELL by 10 ticks, activation 1000, a gap through the activation',
      trailing('FALLING', 1000, distance(10)),
      900,
      [
        [950, false, 0, undefined, undefined],
        [1050, false, 1, 1050, 1040],
        [1041, false, 1, 1050, 1040],
        [900, true, 1, 1050, 1040],
      ],
    ],
    [
      'BUY by rate 1%, activation 1000',
      trailing('RISING', 1000, rate(1_000_000)),
      undefined,
      [
        [1010, false, 0, undefined, undefined],
        [1001, false, 0, undefined, undefined],
        [1000, false, 1, 1000, 1010],
        [990, false, 1, 990, 1000], // 999.9 → 1000
        [995, false, 1, 990, 1000],
        [999, false, 1, 990, 1000],
        [1000, true, 1, 990, 1000],
      ],
    ],
    [
      'BUY by 5 ticks, activation 0, before any price',
      trailing('RISING', 0, distance(5)),
      undefined,
      [
        [1000, false, 1, 1000, 1005],
        [1004, false, 1, 1000, 1005],
        [980, false, 1, 980, 985],
        [984, false, 1, 980, 985],
        [985, true, 1, 980, 985],
      ],
    ],
    [
      'BUY by rate 0.5%, activation 0, starting from the last price',
      trailing('RISING', 0, rate(500_000)),
      1111,
      [
        [1116, false, 1, 1111, 1117], // 1116.555 → 1117
        [1100, false, 1, 1100, 1106], // 1105.5 → 1106
        [1106, true, 1, 1100, 1106],
      ],
    ],
  ])('%s', (_name, spec, lastPrice, steps) => {
    const book = new TriggerBook();
    if (lastPrice !== undefined) book.onPrice(BTC, 'CONTRACT_PRICE', lastPrice);
    book.add('t', spec);
    expect(trace(book, steps.map(([price]) => price))).toEqual(steps);
    expect(book.get('t')).toBeUndefined();
  });

  it('reports activation 0 as active at once, with no level before a price on its own source', () => {
    const book = new TriggerBook();
    book.onPrice(BTC, 'CONTRACT_PRICE', 1000);
    book.add('t', trailing('FALLING', 0, distance(10), 'MARK_PRICE'));
    expect(book.get('t')).toMatchObject({ activeStatus: 1, extremeTicks: undefined, levelTicks: undefined });
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 500)).toEqual([]);
    expect(book.onPrice(BTC, 'MARK_PRICE', 1001)).toEqual([]);
    expect(book.get('t')).toMatchObject({ extremeTicks: 1001, levelTicks: 991 });
    expect(book.onPrice(BTC, 'MARK_PRICE', 991)).toEqual(['t']);
  });

  it('starts over when its parameters change, and keeps tracking when they do not', () => {
    const book = new TriggerBook();
    book.add('t', trailing('FALLING', 1000, distance(10)));
    book.onPrice(BTC, 'CONTRACT_PRICE', 1050);
    expect(book.update('t', trailing('FALLING', 1000, distance(10)))).toBe(true);
    expect(book.get('t')).toMatchObject({ activeStatus: 1, extremeTicks: 1050, levelTicks: 1040 });
    book.update('t', trailing('FALLING', 1000, distance(20)));
    expect(book.get('t')).toMatchObject({ activeStatus: 0, extremeTicks: undefined, levelTicks: undefined });
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1030)).toEqual([]);
    expect(book.get('t')).toMatchObject({ activeStatus: 1, extremeTicks: 1030, levelTicks: 1010 });
    book.update('t', trailing('FALLING', 0, rate(1_000_000)));
    expect(book.get('t')).toMatchObject({ activeStatus: 1, extremeTicks: 1030, levelTicks: 1019 });
    book.update('t', { kind: 'FIXED', symbol: BTC, source: 'CONTRACT_PRICE', direction: 'FALLING', stopTicks: 1000 });
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1001)).toEqual([]);
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1000)).toEqual(['t']);
  });

  it('fires together with fixed triggers in registration order', () => {
    const book = new TriggerBook();
    book.add('f1', { kind: 'FIXED', symbol: BTC, source: 'CONTRACT_PRICE', direction: 'FALLING', stopTicks: 950 });
    book.add('t', trailing('FALLING', 0, distance(30)));
    book.add('f2', { kind: 'FIXED', symbol: BTC, source: 'CONTRACT_PRICE', direction: 'FALLING', stopTicks: 990 });
    book.add('t2', trailing('RISING', 0, distance(30)));
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1000)).toEqual([]);
    expect(book.idsFor(BTC)).toEqual(['f1', 't', 'f2', 't2']);
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 900)).toEqual(['f1', 't', 'f2']);
    expect(book.remove('t2')).toBe(true);
    expect(book.size).toBe(0);
  });

  it.each([
    ['a zero rate', trailing('FALLING', 0, rate(0))],
    ['a rate of 100%', trailing('FALLING', 0, rate(100_000_000))],
    ['a fractional rate', trailing('FALLING', 0, rate(0.5))],
    ['a zero distance', trailing('RISING', 0, distance(0))],
    ['a negative activation', trailing('RISING', -1, distance(5))],
  ])('refuses %s', (_name, spec) => {
    expect(() => new TriggerBook().add('t', spec)).toThrow(InvariantError);
  });
});
