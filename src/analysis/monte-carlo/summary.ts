import type { Distribution } from './percentiles.js';
import { distributionOf } from './percentiles.js';
import type { MonteCarloMethod } from './scenario-items.js';
import { MONTE_CARLO_METHODS } from './scenario-items.js';
import type { ScenarioOutcome } from './scenario-outcome.js';
import type { TradeSampling } from './trade-shuffle.js';

/** Final equity, max drawdown and Sharpe of one run (the backtest itself, or its trades as traded). */
export interface RunFigures {
  readonly finalEquity: string;
  readonly maxDrawdown: number;
  readonly sharpe: number | null;
}

/** How a Monte Carlo run was set up: with the scenarios' outcomes, all a summary is made from. */
export interface MonteCarloSetup {
  readonly seed: number;
  /** Scenarios per method. */
  readonly scenarios: number;
  readonly methods: readonly MonteCarloMethod[];
  /** A scenario is ruined when its max drawdown reaches this fraction. */
  readonly ruinDrawdown: number;
  readonly initialEquity: string;
  /** The backtest the scenarios vary. */
  readonly backtest: RunFigures;
  readonly shuffle?: { readonly sampling: TradeSampling; readonly closedTrades: number; readonly asTraded: RunFigures };
  readonly bootstrap?: { readonly blockMs: number; readonly strideMs: number; readonly blocksPerPath: number; readonly blockStarts: number };
}

export interface MethodSummary {
  readonly method: MonteCarloMethod;
  readonly scenarios: number;
  readonly finalEquity: Distribution;
  readonly maxDrawdown: Distribution;
  /** Over the scenarios whose Sharpe is defined (`sharpeUndefined` had no variation). */
  readonly sharpe: Distribution;
  readonly sharpeUndefined: number;
  /** Share of scenarios whose max drawdown reached `ruinDrawdown`. */
  readonly ruinProbability: number | null;
}

/** montecarlo.json. */
export interface MonteCarloSummary {
  readonly format: 'stratd-monte-carlo';
  readonly version: 1;
  readonly setup: MonteCarloSetup;
  readonly methods: readonly MethodSummary[];
}

export function ruined(outcome: ScenarioOutcome, ruinDrawdown: number): boolean {
  return outcome.maxDrawdown >= ruinDrawdown;
}

/**
 * The distributions of the scenarios' outcomes, per method. Made from the outcomes alone (in item
 * order), so the outcomes of shards put together summarize exactly as one run's.
 */
export function monteCarloSummary(setup: MonteCarloSetup, outcomes: readonly ScenarioOutcome[]): MonteCarloSummary {
  const methods = MONTE_CARLO_METHODS.filter((m) => setup.methods.includes(m)).map((method): MethodSummary => {
    const mine = outcomes.filter((o) => o.method === method);
    const sharpes = mine.flatMap((o) => (o.sharpe === null ? [] : [o.sharpe]));
    return {
      method,
      scenarios: mine.length,
      finalEquity: distributionOf(mine.map((o) => Number(o.finalEquity))),
      maxDrawdown: distributionOf(mine.map((o) => o.maxDrawdown)),
      sharpe: distributionOf(sharpes),
      sharpeUndefined: mine.length - sharpes.length,
      ruinProbability: mine.length === 0 ? null : Number((mine.filter((o) => ruined(o, setup.ruinDrawdown)).length / mine.length).toFixed(6)),
    };
  });
  return { format: 'stratd-monte-carlo', version: 1, setup, methods };
}
