import { sideDelta } from '../../../src/sim/market-ws/book-diff.js';
import type { PriceLevel } from '../../../src/sim/market-stream/events.js';

/** The delta by definition: every level whose size differs (vanished: "0"), sorted in the side's order. */
function expected(before: readonly PriceLevel[], after: readonly PriceLevel[], descending: boolean): PriceLevel[] {
  const old = new Map(before.map(([p, q]) => [p, q]));
  const now = new Map(after.map(([p, q]) => [p, q]));
  const changed: PriceLevel[] = [...after.filter(([p, q]) => old.get(p) !== q), ...before.filter(([p]) => !now.has(p)).map(([p]): PriceLevel => [p, '0'])];
  return changed.sort((a, b) => (descending ? -1 : 1) * (Number(a[0]) - Number(b[0])));
}

/** A side of `count` distinct prices around 100 (tick 0.5), in the side's order, random sizes. */
function side(random: () => number, count: number, descending: boolean): PriceLevel[] {
  const prices = new Set<number>();
  while (prices.size < count) prices.add(90 + Math.floor(random() * 40) / 2);
  return [...prices].sort((a, b) => (descending ? b - a : a - b)).map((p): PriceLevel => [p.toFixed(1), String(1 + Math.floor(random() * 3))]);
}

describe('diffDepth side delta', () => {
  it('equals the changed levels in the side order, for random books on both sides', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let round = 0; round < 500; round += 1) {
      const descending = round % 2 === 0;
      const before = side(random, Math.floor(random() * 12), descending);
      const after = side(random, Math.floor(random() * 12), descending);
      expect(sideDelta(before, after, descending)).toEqual(expected(before, after, descending));
    }
  });

  it('is empty for the same book, and names every level of a book that vanished', () => {
    const book: PriceLevel[] = [['101.5', '2'], ['101', '1']];
    expect(sideDelta(book, book, true)).toEqual([]);
    expect(sideDelta(book, [], true)).toEqual([['101.5', '0'], ['101', '0']]);
    expect(sideDelta([], book, true)).toEqual(book);
  });
});
