import { StepGrid } from '../../market-stream/ticks.js';
import type { TrailingCallback, TriggerDirection } from './types.js';

// Globals read once: hot loops also run inside jest's vm context, where each global lookup is slow.
const { floor } = Math;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const bigInt = BigInt;
const numberOf = Number;

/** Callback rates are held as integer multiples of 10^-8. */
export const RATE_GRID = new StepGrid('0.00000001');
export const RATE_SCALE = 100_000_000;
const RATE_SCALE_BIG = 100_000_000n;

/** A callback rate's decimal text ('0.01') as units of 10^-8 (1_000_000); undefined when finer or not a number. */
export function rateE8(text: string): number | undefined {
  return RATE_GRID.tryUnits(text);
}

/**
 * The stop level of an active trailing trigger whose extreme price is `extreme`. FALLING: fires at
 * price <= extreme × (1 − rate); for integer prices that is price <= floor(extreme × (1 − rate)), so
 * the floor is the exact level, not a rounding choice. RISING: price >= ceil(extreme × (1 + rate)).
 * PRICE callbacks are plain tick distances.
 */
export function trailingLevel(direction: TriggerDirection, callback: TrailingCallback, extreme: number): number {
  if (callback.type === 'PRICE') return direction === 'FALLING' ? extreme - callback.ticks : extreme + callback.ticks;
  if (direction === 'FALLING') return floorScaled(extreme, RATE_SCALE - callback.rateE8);
  return -floorScaled(-extreme, RATE_SCALE + callback.rateE8);
}

/** floor(ticks × factor / 10^8) in exact integer arithmetic. */
function floorScaled(ticks: number, factor: number): number {
  const product = ticks * factor; // both integers: exact while within ±2^53
  if (product > MAX_SAFE || product < -MAX_SAFE) return floorScaledBig(ticks, factor);
  let quotient = floor(product / RATE_SCALE);
  // The float division can land one off near an integer; the remainder check settles it exactly.
  const remainder = product - quotient * RATE_SCALE;
  if (remainder < 0) quotient -= 1;
  else if (remainder >= RATE_SCALE) quotient += 1;
  return quotient;
}

function floorScaledBig(ticks: number, factor: number): number {
  const product = bigInt(ticks) * bigInt(factor);
  let quotient = product / RATE_SCALE_BIG;
  if (product < 0n && quotient * RATE_SCALE_BIG !== product) quotient -= 1n;
  return numberOf(quotient);
}
