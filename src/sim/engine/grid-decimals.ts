import type { Decimal } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import { decimalOfScaled } from '../../core/scaled-integer.js';
import type { StepGrid } from '../market-stream/ticks.js';

/**
 * Decimals of a grid's units, each made once: the value of `decimalOfText(grid.toText(units))`, built
 * from the digits (`decimalOfScaled`, the same digit words), without the text made and looked up again
 * on every read (an order's price and quantities are read as decimals at each of its events, a fill's
 * at each fill, a market event's prices at each event). Keyed by the integer units; bounded: a full
 * table starts over.
 */
export class GridDecimals {
  private readonly values = new Map<number, Decimal>();

  constructor(
    private readonly grid: StepGrid,
    private readonly max = 10_000,
  ) {}

  of(units: number): Decimal {
    let value = this.values.get(units);
    if (value === undefined) {
      if (this.values.size >= this.max) this.values.clear();
      const scaled = this.grid.scaledOf(units);
      value = scaled === undefined ? decimalOfText(this.grid.toText(units)) : decimalOfScaled(scaled, this.grid.decimals);
      this.values.set(units, value);
    }
    return value;
  }
}
