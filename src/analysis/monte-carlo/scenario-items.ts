import { Prng } from '../../sim/market-stream/prng.js';

/** The two ways a Monte Carlo scenario varies a backtest. */
export type MonteCarloMethod = 'shuffle' | 'bootstrap';

export const MONTE_CARLO_METHODS = ['shuffle', 'bootstrap'] as const satisfies readonly MonteCarloMethod[];

/**
 * One scenario as a deterministic work item: which method and which scenario number. Its random
 * numbers come from the run's base seed and these two alone (`scenarioPrng`), never from the order in
 * which scenarios run or from which worker or shard runs them, so any slice of the list gives the
 * numbers the whole run gives for those items.
 */
export interface ScenarioItem {
  /** Position in the full list (0-based): what a shard slices on and what outputs are sorted by. */
  readonly item: number;
  readonly method: MonteCarloMethod;
  /** Scenario number within its method (0-based). */
  readonly index: number;
}

/** Every scenario of a run: for each method in `MONTE_CARLO_METHODS` order, scenarios 0…n−1. */
export function scenarioItems(methods: readonly MonteCarloMethod[], n: number): ScenarioItem[] {
  const items: ScenarioItem[] = [];
  for (const method of MONTE_CARLO_METHODS) {
    if (!methods.includes(method)) continue;
    for (let index = 0; index < n; index++) items.push({ item: items.length, method, index });
  }
  return items;
}

/** The random stream of one scenario: the base seed and the scenario's method and number name it. */
export function scenarioPrng(seed: number, item: Pick<ScenarioItem, 'method' | 'index'>): Prng {
  return new Prng(seed, `monte-carlo/${item.method}/${item.index}`);
}
