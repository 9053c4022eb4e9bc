import type { StepGrid } from '../../sim/market-stream/ticks.js';

type UnitsTable = Array<number | null | undefined>;

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
  // The first grid's table in fields of their own (a backtest asks with one grid per column): no array
  // that starts empty in every backtest and changes its elements kind at its first push, which made
  // `units` and its callers deoptimize ("wrong map") at the start of each backtest after the first.
  /** '' until the first grid (no grid's step is empty): a string always, for the comparison's sake. */
  private firstStep = '';
  private firstDecimals = 0;
  /** Per step: a text's units, null when off the grid, undefined when not converted yet. */
  private firstTable: UnitsTable | undefined;
  /** Other grids' tables (a sweep's other steps), by `decimals/step`. */
  private readonly others = new Map<string, UnitsTable>();

  constructor(private readonly dictionary: readonly string[]) {}

  /** Units of the dictionary's text `index` on `grid`; undefined when the text is off the grid (the caller's own conversion then reports it). */
  units(index: number, grid: StepGrid): number | undefined {
    const table = grid.step === this.firstStep && grid.decimals === this.firstDecimals ? this.firstTable! : this.tableOf(grid);
    let units = table[index];
    if (units === undefined) {
      units = grid.tryUnits(this.dictionary[index]!) ?? null;
      table[index] = units;
    }
    return units ?? undefined;
  }

  private tableOf(grid: StepGrid): UnitsTable {
    const { step, decimals } = grid;
    if (this.firstTable === undefined) {
      this.firstStep = step;
      this.firstDecimals = decimals;
      return (this.firstTable = this.newTable());
    }
    const key = `${decimals}/${step}`;
    let table = this.others.get(key);
    if (table === undefined) this.others.set(key, (table = this.newTable()));
    return table;
  }

  private newTable(): UnitsTable {
    return new Array<number | null | undefined>(this.dictionary.length).fill(undefined);
  }
}
