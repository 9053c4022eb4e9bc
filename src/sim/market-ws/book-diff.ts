import type { PriceLevel } from '../market-stream/events.js';

/**
 * The levels of one side that changed from `before` to `after`, in the side's own order: a new or
 * resized level with its new absolute size, a vanished one with size "0" (API-NOTES §8 diffDepth).
 * `descending` is true for bids (high → low), false for asks; both lists are in that order, so one
 * merge walk finds the changes in order (each price parsed once, nothing sorted).
 */
export function sideDelta(before: readonly PriceLevel[], after: readonly PriceLevel[], descending: boolean): PriceLevel[] {
  const changed: PriceLevel[] = [];
  const sign = descending ? -1 : 1;
  let i = 0;
  let j = 0;
  let oldPrice = i < before.length ? Number(before[i]?.[0]) : NaN;
  let newPrice = j < after.length ? Number(after[j]?.[0]) : NaN;
  while (i < before.length || j < after.length) {
    const old = before[i];
    const next = after[j];
    const order = old === undefined ? 1 : next === undefined ? -1 : sign * (oldPrice - newPrice);
    if (order < 0 && old !== undefined) {
      changed.push([old[0], '0']);
      i += 1;
      oldPrice = Number(before[i]?.[0]);
    } else if (order > 0 && next !== undefined) {
      changed.push(next);
      j += 1;
      newPrice = Number(after[j]?.[0]);
    } else if (old !== undefined && next !== undefined) {
      if (old[1] !== next[1]) changed.push(next);
      i += 1;
      j += 1;
      oldPrice = Number(before[i]?.[0]);
      newPrice = Number(after[j]?.[0]);
    }
  }
  return changed;
}
