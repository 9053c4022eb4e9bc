import type { Decimal } from '../../core/decimal.js';
import { decimalOfText } from '../../core/decimal-cache.js';
import { decimalOfScaled, midpointOfScaled } from '../../core/scaled-integer.js';
import type { StepGrid } from '../market-stream/ticks.js';

/** Slots of the direct-mapped front (a power of two): a symbol's prices of a stretch of the market sit in a few thousand consecutive ticks. */
const FRONT_SLOTS = 4096;
const FRONT_MASK = FRONT_SLOTS - 1;

/**
 * Decimals of a grid's units, each made once: the value of `decimalOfText(grid.toText(units))`, built
 * from the digits (`decimalOfScaled`, the same digit words), without the text made and looked up again
 * on every read (an order's price and quantities are read as decimals at each of its events, a fill's
 * at each fill, a market event's prices at each event). Keyed by the integer units; bounded: a full
 * table starts over (its front too). A direct-mapped front indexed by the units' low bits answers most reads without
 * the table's hashing (a backtest reads ~170k prices, ~24k distinct); it holds the table's own objects,
 * so a value read twice is the same object either way.
 */
export class GridDecimals {
  private readonly values = new Map<number, Decimal>();
  /** The units each front slot holds (NaN: empty), and its decimal. */
  private readonly frontUnits = new Float64Array(FRONT_SLOTS).fill(Number.NaN);
  private readonly frontValues = new Array<Decimal | undefined>(FRONT_SLOTS).fill(undefined);

  /** The grid's decimal places: `scaledOf`'s integers count 10^−scale. */
  readonly scale: number;

  constructor(
    private readonly grid: StepGrid,
    private readonly max = 10_000,
  ) {
    this.scale = grid.decimals;
  }

  /** `of(units)` as an integer count of 10^−scale (no decimal made); undefined beyond 2^53. */
  scaledOf(units: number): number | undefined {
    return this.grid.scaledOf(units);
  }

  of(units: number): Decimal {
    const slot = units & FRONT_MASK;
    if (this.frontUnits[slot] === units) {
      const known = this.frontValues[slot];
      if (known !== undefined) return known;
    }
    let value = this.values.get(units);
    if (value === undefined) {
      if (this.values.size >= this.max) {
        this.values.clear();
        this.frontUnits.fill(Number.NaN);
      }
      const scaled = this.grid.scaledOf(units);
      value = scaled === undefined ? decimalOfText(this.grid.toText(units)) : decimalOfScaled(scaled, this.grid.decimals);
      this.values.set(units, value);
    }
    this.frontUnits[slot] = units;
    this.frontValues[slot] = value;
    return value;
  }

  /** `midpoint(of(a), of(b))`, the same decimal, made from the units (neither price's decimal is read); undefined where it does not fit a safe integer. */
  midOf(a: number, b: number): Decimal | undefined {
    const x = this.grid.scaledOf(a);
    const y = this.grid.scaledOf(b);
    return x === undefined || y === undefined ? undefined : midpointOfScaled(x, y, this.grid.decimals);
  }
}
