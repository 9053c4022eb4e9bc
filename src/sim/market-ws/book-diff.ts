import type { PriceLevel } from '../market-stream/events.js';

/**
 * The levels of one side that changed from `before` to `after`, in the side's own order: a new or
 * resized level with its new absolute size, a vanished one with size "0" (API-NOTES §8 diffDepth).
 * `descending` is true for bids (high → low), false for asks.
 */
export function sideDelta(before: readonly PriceLevel[], after: readonly PriceLevel[], descending: boolean): PriceLevel[] {
  const old = new Map<string, string>();
  for (const [price, qty] of before) old.set(price, qty);
  const changed: PriceLevel[] = [];
  const seen = new Set<string>();
  for (const [price, qty] of after) {
    seen.add(price);
    if (old.get(price) !== qty) changed.push([price, qty]);
  }
  for (const [price] of before) if (!seen.has(price)) changed.push([price, '0']);
  const sign = descending ? -1 : 1;
  return changed.sort((a, b) => sign * (Number(a[0]) - Number(b[0])));
}
