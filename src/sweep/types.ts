import type { KlineSeries } from '../backtest/kline-builder.js';
import type { Decimal } from '../core/decimal.js';
import type { RiskLimits } from '../model/risk-limits.js';
import type { LatencyModel } from '../sim/port/port-latency.js';
import type { BacktestAccount } from '../backtest/types.js';

/** Risk limits as plain values (decimals as text), so a job can cross to a worker thread. */
export type WireLimits = Readonly<Record<string, string | number>>;

/** One varied setting: a strategy's param or risk limit and the values it takes. */
export interface SweepAxis {
  readonly strategy: string;
  readonly section: 'params' | 'risk';
  readonly key: string;
  readonly values: readonly unknown[];
}

/** One point of the grid: for each axis, the index of its value. `index` is the row number (0-based). */
export interface SweepCombination {
  readonly index: number;
  readonly choice: readonly number[];
}

/** A configured strategy as a worker rebuilds it: its module file, unvalidated params and limits. */
export interface SweepStrategySpec {
  readonly id: string;
  readonly symbols: readonly string[];
  /** Absolute path of the strategy module (compiled .js for worker threads). */
  readonly moduleFile: string;
  /** The config's params as written (the schema validates them with the grid's values merged in). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly limits: WireLimits;
}

/** Everything a combination's backtest needs except the combination: structured-cloneable. */
export interface SweepJob {
  readonly strategies: readonly SweepStrategySpec[];
  readonly risk: WireLimits;
  readonly recordings: readonly string[];
  readonly from?: number;
  readonly to?: number;
  readonly latency?: LatencyModel;
  readonly account: BacktestAccount;
  readonly orphans?: 'adopt' | 'cancel';
  /** Kline series built from the recorded trades (the config's market klines). */
  readonly klines?: readonly KlineSeries[];
  readonly axes: readonly SweepAxis[];
  /** Read the recordings' prepared form (built beside them if missing); absent: JSONL only (--no-cache). */
  readonly prepared?: { readonly fallbackDir?: string };
}

/** The key figures of one combination's backtest (summary.json's total). */
export interface SweepMetrics {
  readonly netPnl: string;
  readonly return: number;
  readonly maxDrawdown: number;
  readonly sharpe: number | null;
  readonly sortino: number | null;
  readonly orders: number;
  readonly fills: number;
  readonly fees: string;
  readonly fillsSha256: string;
}

export interface SweepRow {
  readonly index: number;
  /** Per axis, the value this combination used. */
  readonly values: readonly unknown[];
  readonly metrics: SweepMetrics;
}

/** One combination's row and the market events its backtest replayed. */
export interface SweepOutcome {
  readonly row: SweepRow;
  readonly events: number;
}

/** How long one combination's backtest took, on which worker (0 for a sweep on the calling thread). */
export interface CombinationTiming {
  readonly index: number;
  readonly worker: number;
  readonly events: number;
  readonly ms: number;
}

export interface SweepProgress {
  readonly done: number;
  readonly total: number;
}

export function limitsToWire(limits: RiskLimits): WireLimits {
  const wire: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(limits) as Array<[string, Decimal | number | undefined]>) {
    if (value !== undefined) wire[key] = typeof value === 'number' ? value : value.toFixed();
  }
  return wire;
}

/** The axis values of a combination. */
export function valuesOf(axes: readonly SweepAxis[], combination: SweepCombination): unknown[] {
  return axes.map((axis, i) => axis.values[combination.choice[i] ?? 0]);
}

/** An axis's column name: strategy.section.key. */
export function axisName(axis: SweepAxis): string {
  return `${axis.strategy}.${axis.section}.${axis.key}`;
}
