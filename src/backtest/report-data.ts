import type { BacktestResult } from './backtest-types.js';
import { drawdowns } from './metrics.js';

/** One symbol's market price over the run, e.g. sampled mark prices (`priceSeriesOf`). */
export interface PriceSeries {
  readonly symbol: string;
  /** What the prices are, for the chart's caption, e.g. 'mark price'. */
  readonly source: string;
  readonly points: ReadonlyArray<readonly [time: number, price: number]>;
}

/** A fill marker on a price chart: time, price, +1 buy / -1 sell. */
export type FillMarker = readonly [time: number, price: number, side: 1 | -1];

export interface SymbolChartData {
  readonly symbol: string;
  readonly source: string;
  readonly points: ReadonlyArray<readonly [number, number]>;
  readonly fills: readonly FillMarker[];
  /** Fills of this symbol not marked (over MAX_FILL_MARKERS). */
  readonly unmarked: number;
}

/** What the report's inline script draws: plain numbers only, in a fixed order. */
export interface ReportChartData {
  readonly equity: ReadonlyArray<readonly [number, number]>;
  /** Drawdown below the running peak as a negative fraction (0 at a high), so the chart hangs down. */
  readonly drawdown: ReadonlyArray<readonly [number, number]>;
  readonly symbols: readonly SymbolChartData[];
}

/** Points per line: longer series keep every k-th point and the last one. */
export const MAX_CHART_POINTS = 2000;
/** Fill markers per symbol chart: the first ones in time are marked. */
export const MAX_FILL_MARKERS = 5000;

export function thin<T>(points: readonly T[], max = MAX_CHART_POINTS): T[] {
  if (points.length <= max) return [...points];
  const step = Math.ceil(points.length / max);
  const kept = points.filter((_, i) => i % step === 0);
  if ((points.length - 1) % step !== 0) kept.push(points[points.length - 1]!);
  return kept;
}

/**
 * The chart data of a result. Without `prices` for a symbol, its line joins the fill prices (the
 * caption says so). Symbols: those priced and those traded, sorted.
 */
export function reportChartData(result: BacktestResult, prices: readonly PriceSeries[] = []): ReportChartData {
  const down = drawdowns(result.equity.map((r) => r.equity));
  const equity = result.equity.map((r) => [r.time, Number(r.equity.toFixed())] as const);
  const drawdown = result.equity.map((r, i) => [r.time, -Number(down[i]!.toFixed()) || 0] as const);
  const symbols = [...new Set([...prices.map((p) => p.symbol), ...result.fills.map((f) => f.symbol)])].sort();
  return {
    equity: thin(equity),
    drawdown: thin(drawdown),
    symbols: symbols.map((symbol): SymbolChartData => {
      const fills = result.fills.filter((f) => f.symbol === symbol).map((f): FillMarker => [f.time, Number(f.price.toFixed()), f.side === 'BUY' ? 1 : -1]);
      const priced = prices.find((p) => p.symbol === symbol);
      const points = priced === undefined ? fills.map(([t, p]) => [t, p] as const) : priced.points;
      return {
        symbol,
        source: priced === undefined ? 'fill prices (no market prices given)' : priced.source,
        points: thin(points),
        fills: fills.slice(0, MAX_FILL_MARKERS),
        unmarked: Math.max(0, fills.length - MAX_FILL_MARKERS),
      };
    }),
  };
}
