import type { DepthEvent, PriceLevel } from '../market-stream/events.js';
import type { GridText } from './grid-text.js';
import type { OrderBookRow } from './wire-rows.js';

/** The book with at most `limit` levels a side (0: the whole book); before any snapshot an empty book at `now`. */
export function depthRow(depth: DepthEvent | undefined, limit: number, now: number): OrderBookRow {
  if (depth === undefined) return { t: now, b: [], a: [] };
  const take = (levels: readonly PriceLevel[]): readonly PriceLevel[] => (limit === 0 || limit >= levels.length ? levels : levels.slice(0, limit));
  return { t: depth.ts, b: take(depth.bids), a: take(depth.asks) };
}

/**
 * The book aggregated to a price gear of 10^scale ticks (scale 0 is the tick itself): bids round down
 * and asks up to the gear, sizes summed; at most `limit` levels a side.
 */
export function mergedDepthRow(depth: DepthEvent | undefined, grid: GridText, scale: number, limit: number, now: number): OrderBookRow {
  if (depth === undefined) return { t: now, b: [], a: [] };
  const gear = 10 ** scale;
  return { t: depth.ts, b: merge(depth.bids, grid, gear, Math.floor, limit), a: merge(depth.asks, grid, gear, Math.ceil, limit) };
}

function merge(levels: readonly PriceLevel[], grid: GridText, gear: number, round: (x: number) => number, limit: number): PriceLevel[] {
  const out: PriceLevel[] = [];
  let bucket: number | undefined;
  let lots = 0;
  const flush = (): void => {
    if (bucket !== undefined) out.push([grid.priceText(bucket * gear), grid.quantityText(lots)]);
  };
  for (const [price, qty] of levels) {
    const ticks = grid.price.tryUnits(price);
    const size = grid.quantity.tryUnits(qty);
    if (ticks === undefined || size === undefined) continue;
    const b = round(ticks / gear);
    if (b !== bucket) {
      flush();
      if (limit !== 0 && out.length >= limit) return out;
      bucket = b;
      lots = 0;
    }
    lots += size;
  }
  if (limit === 0 || out.length < limit) flush();
  return out;
}
