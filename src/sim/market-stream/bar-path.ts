import type { BarEvent } from './events.js';
import type { StepGrid } from './ticks.js';

/** One point of a bar's path: a time inside the bar and a price in ticks. */
export interface BarPathPoint {
  readonly ts: number;
  readonly priceTicks: number;
}

/** Steps each leg of a bar's path is cut into (open → first extreme → second extreme → close). */
export const DEFAULT_STEPS_PER_LEG = 8;

/**
 * The path a bar is assumed to have taken, as the bar model replays it: open → low → high → close for a
 * bar that closed at or above its open (it dipped first), open → high → low → close otherwise. Each leg
 * is cut into `stepsPerLeg` equal steps rounded to the tick grid (a stop triggers within a step of its
 * price); repeated prices are kept once; prices off the grid (mark, index) go to the nearest tick. Times are spread evenly from the open time to the last
 * millisecond of the bar, so every point is inside it. Pure integer ticks; the first point is the open.
 */
export function barPath(bar: BarEvent, grid: StepGrid, stepsPerLeg = DEFAULT_STEPS_PER_LEG): BarPathPoint[] {
  // Mark and index prices carry more decimals than the tick: they go to the nearest tick.
  const units = (text: string): number => grid.tryUnits(text) ?? grid.nearestUnits(Number(text));
  const open = units(bar.open);
  const high = units(bar.high);
  const low = units(bar.low);
  const close = units(bar.close);
  const rising = close >= open;
  const corners = [open, rising ? low : high, rising ? high : low, close];
  const prices: number[] = [open];
  for (let leg = 0; leg < 3; leg++) {
    const from = corners[leg]!;
    const to = corners[leg + 1]!;
    for (let step = 1; step <= stepsPerLeg; step++) {
      const price = step === stepsPerLeg ? to : Math.round(from + ((to - from) * step) / stepsPerLeg);
      if (price !== prices[prices.length - 1]) prices.push(price);
    }
  }
  const last = bar.ts + bar.durationMs - 1;
  const span = last - bar.ts;
  return prices.map((priceTicks, i) => ({ ts: prices.length === 1 ? bar.ts : bar.ts + Math.floor((span * i) / (prices.length - 1)), priceTicks }));
}
