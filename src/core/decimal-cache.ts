import type { Decimal } from './decimal.js';
import { dec } from './decimal.js';

/**
 * Decimals of decimal text, parsed once: prices, quantities and instrument constants repeat from one
 * event to the next, and a Map lookup costs a fraction of a parse. Decimals are immutable, so sharing
 * is safe; the value is exactly `dec(text)`. Bounded: a full cache starts over.
 */
export class DecimalCache {
  private readonly values = new Map<string, Decimal>();

  constructor(private readonly max = 100_000) {}

  of(text: string): Decimal {
    let value = this.values.get(text);
    if (value === undefined) {
      if (this.values.size >= this.max) this.values.clear();
      value = dec(text);
      this.values.set(text, value);
    }
    return value;
  }
}

const shared = new DecimalCache();

/** `dec(text)` through the process's shared cache (per-event prices and quantities, constants). */
export function decimalOfText(text: string): Decimal {
  return shared.of(text);
}
