import type { StepGrid } from '../../sim/market-stream/ticks.js';

/**
 * A dictionary column's distinct texts as units of a step grid, each text converted once per step when
 * first asked (`StepGrid.tryUnits`, so the same units): a replay converts the same few thousand price
 * texts about a million times, and the conversion was ~9% of a data-only replay's CPU. Tables are kept
 * by the grid's step and decimals (which alone decide `tryUnits`), not by grid object: every backtest of
 * a sweep makes its own grids, and they all share one table per step. The tables are plain arrays, not
 * Float64Arrays: a Float64Array hands out every value as a heap number, where the JSONL path's conversion
 * gives small integers (Smis), and the engine's fields and code warmed on one path deoptimized on the other.
 */
export class DictionaryUnits {
  private readonly steps: string[] = [];
  private readonly decimals: number[] = [];
  /** Per step: a text's units, null when off the grid, undefined when not converted yet. */
  private readonly tables: Array<number | null | undefined>[] = [];

  constructor(private readonly dictionary: readonly string[]) {}

  /** Units of the dictionary's text `index` on `grid`; undefined when the text is off the grid (the caller's own conversion then reports it). */
  units(index: number, grid: StepGrid): number | undefined {
    const table = this.tableOf(grid);
    let units = table[index];
    if (units === undefined) {
      units = grid.tryUnits(this.dictionary[index]!) ?? null;
      table[index] = units;
    }
    return units ?? undefined;
  }

  private tableOf(grid: StepGrid): Array<number | null | undefined> {
    const { step, decimals } = grid;
    for (let i = 0; i < this.steps.length; i++) {
      if (this.steps[i] === step && this.decimals[i] === decimals) return this.tables[i]!;
    }
    const table = new Array<number | null | undefined>(this.dictionary.length).fill(undefined);
    this.steps.push(step);
    this.decimals.push(decimals);
    this.tables.push(table);
    return table;
  }
}
