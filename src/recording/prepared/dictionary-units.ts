import type { StepGrid } from '../../sim/market-stream/ticks.js';

const OFF_GRID = Number.POSITIVE_INFINITY;

/**
 * A dictionary column's distinct texts as units of a step grid, each text converted once per step when
 * first asked (`StepGrid.tryUnits`, so the same units): a replay converts the same few thousand price
 * texts about a million times, and the conversion was ~9% of a data-only replay's CPU. Tables are kept
 * by the grid's step and decimals (which alone decide `tryUnits`), not by grid object: every backtest of
 * a sweep makes its own grids, and they all share one table per step.
 */
export class DictionaryUnits {
  private readonly steps: string[] = [];
  private readonly decimals: number[] = [];
  private readonly tables: Float64Array[] = [];

  constructor(private readonly dictionary: readonly string[]) {}

  /** Units of the dictionary's text `index` on `grid`; undefined when the text is off the grid (the caller's own conversion then reports it). */
  units(index: number, grid: StepGrid): number | undefined {
    const table = this.tableOf(grid);
    let units = table[index]!;
    // NaN: not converted yet.
    if (units !== units) {
      units = grid.tryUnits(this.dictionary[index]!) ?? OFF_GRID;
      table[index] = units;
    }
    return units === OFF_GRID ? undefined : units;
  }

  private tableOf(grid: StepGrid): Float64Array {
    const { step, decimals } = grid;
    for (let i = 0; i < this.steps.length; i++) {
      if (this.steps[i] === step && this.decimals[i] === decimals) return this.tables[i]!;
    }
    const table = new Float64Array(this.dictionary.length).fill(Number.NaN);
    this.steps.push(step);
    this.decimals.push(decimals);
    this.tables.push(table);
    return table;
  }
}
