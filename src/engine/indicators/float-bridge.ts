import { dec } from '../../core/decimal.js';
import type { Decimal } from '../../core/decimal.js';

/**
 * trading-signals computes in JS numbers: this is the one place where decimals become floats and
 * back. Results keep 15 significant digits, which drops binary noise (0.30000000000000004 → 0.3)
 * and is far finer than any tick.
 */
export function toFloat(value: Decimal): number {
  return value.toNumber();
}

/** Undefined for NaN and ±Infinity (e.g. an indicator fed a zero range). */
export function fromFloat(value: number): Decimal | undefined {
  return Number.isFinite(value) ? dec(value.toPrecision(15)) : undefined;
}
