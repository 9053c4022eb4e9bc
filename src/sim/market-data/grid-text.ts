import type { Decimal } from '../../core/decimal.js';
import { dec } from '../../core/decimal.js';
import type { SimInstrument } from '../market-stream/instruments.js';
import type { StepGrid } from '../market-stream/ticks.js';
import { StepGrid as Grid } from '../market-stream/ticks.js';

/**
 * An instrument's integer grids and their way back to wire text: prices in ticks, quantities in lots
 * (contracts / quantityStep), quote amounts in tick × lot units (× tickSize × quantityStep ×
 * contractMultiplier = the settle coin).
 */
export class GridText {
  readonly price: StepGrid;
  readonly quantity: StepGrid;
  private readonly quoteFactor: Decimal;
  private readonly tickSize: Decimal;

  constructor(instrument: SimInstrument) {
    this.price = new Grid(instrument.tickSize);
    this.quantity = new Grid(instrument.quantityStep);
    this.tickSize = dec(this.price.step);
    this.quoteFactor = this.tickSize.mul(this.quantity.step).mul(instrument.contractMultiplier);
  }

  priceText(ticks: number): string {
    return this.price.toText(ticks);
  }

  quantityText(lots: number): string {
    return this.quantity.toText(lots);
  }

  quoteText(units: bigint): string {
    return dec(units.toString()).mul(this.quoteFactor).toFixed();
  }

  /** `ticks` (possibly fractional, exact as a ratio sum/count) as a price rounded to the tick's decimals. */
  averagePriceText(tickSum: number, count: number): string {
    return dec(tickSum).div(count).mul(this.tickSize).toDecimalPlaces(this.price.decimals).toFixed();
  }
}
