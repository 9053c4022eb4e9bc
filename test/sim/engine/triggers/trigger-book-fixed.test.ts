import { TriggerBook, type FixedTriggerSpec, type PriceSource, type TriggerDirection } from '../../../../src/sim/engine/triggers/index.js';
import { InvariantError } from '../../../../src/core/errors.js';

const BTC = 'BTC-SWAP-USDT';
const ETH = 'ETH-SWAP-USDT';

function fixed(direction: TriggerDirection, stopTicks: number, source: PriceSource = 'CONTRACT_PRICE', symbol = BTC): FixedTriggerSpec {
  return { kind: 'FIXED', symbol, source, direction, stopTicks };
}

/** Feeds prices and answers what each one fired. */
function feed(book: TriggerBook, prices: readonly number[], source: PriceSource = 'CONTRACT_PRICE', symbol = BTC): (readonly string[])[] {
  return prices.map((ticks) => book.onPrice(symbol, source, ticks));
}

describe('TriggerBook: fixed triggers', () => {
  it.each([
    ['RISING', 1000, [990, 999, 1000, 1001], [[], [], ['t'], []]],
    ['RISING', 1000, [1005], [['t']]],
    ['FALLING', 1000, [1010, 1001, 1000, 999], [[], [], ['t'], []]],
    ['FALLING', 1000, [990], [['t']]],
  ] as const)('%s at %d fires exactly at the level and once: %j', (direction, stop, prices, expected) => {
    const book = new TriggerBook();
    book.add('t', fixed(direction, stop));
    expect(feed(book, prices)).toEqual(expected);
    expect(book.get('t')).toBeUndefined();
    expect(book.size).toBe(0);
  });

  it('keeps the two price sources and the symbols apart', () => {
    const book = new TriggerBook();
    book.add('last', fixed('RISING', 1000, 'CONTRACT_PRICE'));
    book.add('mark', fixed('RISING', 1000, 'MARK_PRICE'));
    book.add('eth', fixed('RISING', 1000, 'CONTRACT_PRICE', ETH));
    expect(book.onPrice(BTC, 'MARK_PRICE', 999)).toEqual([]);
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1000)).toEqual(['last']);
    expect(book.onPrice(ETH, 'MARK_PRICE', 2000)).toEqual([]);
    expect(book.onPrice(BTC, 'MARK_PRICE', 1000)).toEqual(['mark']);
    expect(book.idsFor(ETH)).toEqual(['eth']);
    expect(book.onPrice(ETH, 'CONTRACT_PRICE', 1000)).toEqual(['eth']);
    expect(book.lastPrice(BTC, 'MARK_PRICE')).toBe(1000);
    expect(book.lastPrice(ETH, 'CONTRACT_PRICE')).toBe(1000);
    expect(book.lastPrice('XRP-SWAP-USDT', 'CONTRACT_PRICE')).toBeUndefined();
  });

  it('reports many triggers crossed by one jump in registration order, whatever their levels', () => {
    const book = new TriggerBook();
    const levels = [1050, 1010, 1090, 1010, 1030, 1200, 1001];
    levels.forEach((stop, i) => book.add(`r${i}`, fixed('RISING', stop)));
    book.add('f', fixed('FALLING', 900));
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1000)).toEqual([]);
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1100)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r6']);
    expect(book.idsFor(BTC)).toEqual(['r5', 'f']);
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 800)).toEqual(['f']);
  });

  it('removes by id; a removed or fired trigger is unknown', () => {
    const book = new TriggerBook();
    book.add('a', fixed('RISING', 1000));
    book.add('b', fixed('RISING', 1000));
    book.add('c', fixed('FALLING', 900));
    expect(book.remove('a')).toBe(true);
    expect(book.remove('a')).toBe(false);
    expect(book.remove('nope')).toBe(false);
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1000)).toEqual(['b']);
    expect(book.remove('b')).toBe(false);
    expect(book.update('b', fixed('RISING', 2000))).toBe(false);
    expect(book.remove('c')).toBe(true);
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1)).toEqual([]);
    expect(book.size).toBe(0);
  });

  it('updates the stop, direction and source in place, keeping the registration order', () => {
    const book = new TriggerBook();
    book.add('a', fixed('RISING', 1000));
    book.add('b', fixed('RISING', 1100));
    expect(book.update('a', fixed('RISING', 1200))).toBe(true);
    expect(book.get('a')).toEqual({ kind: 'FIXED', id: 'a', seq: 0, symbol: BTC, source: 'CONTRACT_PRICE', direction: 'RISING', stopTicks: 1200, activeStatus: 0, levelTicks: 1200 });
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1100)).toEqual(['b']);
    book.add('c', fixed('RISING', 1300));
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1300)).toEqual(['a', 'c']);

    book.add('d', fixed('RISING', 1500));
    book.update('d', fixed('FALLING', 1000));
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 1400)).toEqual([]);
    book.update('d', fixed('FALLING', 1000, 'MARK_PRICE'));
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 900)).toEqual([]);
    expect(book.onPrice(BTC, 'MARK_PRICE', 1000)).toEqual(['d']);
  });

  it('hands back the final state of what just fired', () => {
    const book = new TriggerBook();
    book.add('a', fixed('FALLING', 950));
    expect(book.onPrice(BTC, 'CONTRACT_PRICE', 940)).toEqual(['a']);
    expect(book.firedState('a')).toMatchObject({ id: 'a', levelTicks: 950 });
    expect(book.get('a')).toBeUndefined();
  });

  it('refuses duplicate ids, symbol changes and non-integer ticks', () => {
    const book = new TriggerBook();
    book.add('a', fixed('RISING', 1000));
    expect(() => book.add('a', fixed('RISING', 1000))).toThrow(InvariantError);
    expect(() => book.update('a', fixed('RISING', 1000, 'CONTRACT_PRICE', ETH))).toThrow(InvariantError);
    expect(() => book.add('b', fixed('RISING', 10.5))).toThrow(InvariantError);
    expect(() => book.update('a', fixed('RISING', Number.NaN))).toThrow(InvariantError);
    expect(book.get('a')).toMatchObject({ stopTicks: 1000 });
  });

  it('is deterministic', () => {
    const run = (): (readonly string[])[] => {
      const book = new TriggerBook();
      for (let i = 0; i < 50; i++) book.add(`t${i}`, fixed(i % 2 === 0 ? 'RISING' : 'FALLING', 1000 + ((i * 37) % 23) - 11));
      return feed(book, [1000, 1003, 995, 1011, 989, 1000, 1200, 800]);
    };
    expect(run()).toEqual(run());
  });
});
