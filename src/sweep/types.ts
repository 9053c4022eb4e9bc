import type { KlineSeries } from '../backtest/kline-builder.js';
import type { Decimal } from '../core/decimal.js';
import type { ProtectionSpec } from '../model/protections.js';
import type { GlobalRiskLimits, RiskLimits } from '../model/risk-limits.js';
import { protectionsToInput } from '../settings/protections-input.js';
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
  /** Backtest this part of the recordings (epoch ms, `to` inclusive) instead of the job's from/to: a walk-forward window. */
  readonly span?: TimeSpan;
  /** Answer with the backtest's equity curve too (`SweepRow.equity`). */
  readonly curve?: boolean;
}

/** A part of the recordings: the strategies start at `from`; events after `to` are not replayed. */
export interface TimeSpan {
  readonly from: number;
  readonly to: number;
}

/** One equity sample of a backtest (the account's equity, decimal text). */
export interface CurvePoint {
  readonly time: number;
  readonly equity: string;
  /** The closing sample, taken at the end rather than on the interval grid. */
  readonly partial: boolean;
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
  /** The equity curve, when the combination asked for it (`curve`). */
  readonly equity?: readonly CurvePoint[];
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
  /** What it cost its worker thread (worker threads only). */
  readonly cost?: CombinationCost;
}

/** What one combination cost the worker thread that ran it, beside its wall time. */
export interface CombinationCost {
  /** CPU time of the thread, and time it was ready to run but waited for a core (absent where the system does not tell). */
  readonly cpuMs?: number;
  readonly waitMs?: number;
  /** Garbage-collection pauses of the thread's heap. */
  readonly gcMs: number;
  /** Reading (or opening the shared) recordings and loading the strategy modules: the worker's first combination only, 0 after. */
  readonly loadMs: number;
}

/** A worker thread's start and end, on the main thread's stopwatch, and what starting it cost the thread. */
export interface WorkerSpan {
  readonly worker: number;
  /** From `new Worker` to the worker's modules loaded (its first message). */
  readonly startMs: number;
  /** CPU time the thread spent starting (absent where the system does not tell). */
  readonly startCpuMs?: number;
  /** From `new Worker` to its first combination's backtest under way (its recordings loaded): when it started replaying. */
  readonly firstEventMs: number;
  /** From its last answer to the last answer of the sweep: time it idled at the end while another worker finished. */
  readonly idleTailMs: number;
}

export interface SweepProgress {
  readonly done: number;
  readonly total: number;
}

export function limitsToWire(limits: RiskLimits | GlobalRiskLimits): WireLimits {
  const wire: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(limits) as Array<[string, Decimal | number | readonly ProtectionSpec[] | undefined]>) {
    if (value === undefined) continue;
    // The protections travel as their config text (JSON), read by the same schema on the worker.
    if (Array.isArray(value)) wire[key] = JSON.stringify(protectionsToInput(value as readonly ProtectionSpec[]));
    else wire[key] = typeof value === 'number' ? value : (value as Decimal).toFixed();
  }
  return wire;
}

/** Wire limits as the config schema reads them (the protections' JSON text parsed). */
export function wireToLimitsInput(wire: WireLimits): Record<string, unknown> {
  const protections = wire['protections'];
  return typeof protections === 'string' ? { ...wire, protections: JSON.parse(protections) as unknown } : { ...wire };
}

/** The axis values of a combination. */
export function valuesOf(axes: readonly SweepAxis[], combination: SweepCombination): unknown[] {
  return axes.map((axis, i) => axis.values[combination.choice[i] ?? 0]);
}

/** An axis's column name: strategy.section.key. */
export function axisName(axis: SweepAxis): string {
  return `${axis.strategy}.${axis.section}.${axis.key}`;
}
