import type { Decimal } from '../core/decimal.js';
import { dec } from '../core/decimal.js';
import type { AlgoRow, BacktestResult, FillRecord, OrderRow } from '../backtest/types.js';
import { drawdowns } from '../backtest/metrics.js';

/** One candle: open time (epoch ms), open, high, low, close. */
export type Candle = readonly [time: number, open: number, high: number, low: number, close: number];

/** One symbol's candles over the run (`priceSeriesOf`). */
export interface PriceSeries {
  readonly symbol: string;
  /** What the candles are built from, for the chart's caption, e.g. '1m candles from the trades'. */
  readonly source: string;
  readonly intervalMs: number;
  readonly candles: readonly Candle[];
}

/** A point of a line: epoch ms, value. */
export type Point = readonly [time: number, value: number];

/** A fill marker on a price chart: time, price, +1 buy / -1 sell, and which run made it (an index into `runs`). */
export type FillMarker = readonly [time: number, price: number, side: 1 | -1, run: number];

/** A TP/SL (or plan) order: placed at `time` with its trigger price; `triggered` is when it fired (0: never). */
export type StopMark = readonly [time: number, price: number, kind: 'TP' | 'SL' | 'plan', triggered: number];

export interface SymbolPane {
  readonly symbol: string;
  readonly fills: readonly FillMarker[];
  readonly stops: readonly StopMark[];
  /** Fills of this pane not marked (over MAX_FILL_MARKERS). */
  readonly unmarked: number;
}

/** One tab of the page: all strategies together, or one of them. */
export interface ReportTab {
  readonly id: string;
  readonly label: string;
  /** What the equity line is, for its caption. */
  readonly equityCaption: string;
  readonly equity: readonly Point[];
  /** Drawdown below the running peak as a negative fraction (0 at a high), so the chart hangs down. */
  readonly drawdown: readonly Point[];
  readonly symbols: readonly SymbolPane[];
}

/** What the page's script draws: plain numbers and short labels only, in a fixed order. */
export interface ReportPageData {
  /** Labels of the fill sets the markers come from: ['fills'], or ['paper', 'backtest'] for parity. */
  readonly runs: readonly string[];
  readonly prices: Readonly<Record<string, { readonly source: string; readonly intervalMs: number; readonly candles: readonly Candle[] }>>;
  readonly tabs: readonly ReportTab[];
}

/** Points per line: longer series keep every k-th point and the last one. */
export const MAX_CHART_POINTS = 5000;
/** Candles per symbol: a longer run is drawn in a longer interval. */
export const MAX_CANDLES = 2000;
/** Fill markers per symbol chart: the first ones in time are marked. */
export const MAX_FILL_MARKERS = 5000;
/** The tab of all strategies together. */
export const ALL_TAB = 'all';

export function thin<T>(points: readonly T[], max = MAX_CHART_POINTS): T[] {
  if (points.length <= max) return [...points];
  const step = Math.ceil(points.length / max);
  const kept = points.filter((_, i) => i % step === 0);
  if ((points.length - 1) % step !== 0) kept.push(points[points.length - 1]!);
  return kept;
}

/**
 * Who a fill belongs to on the report's tabs: its order's owner, or, for the order a TP/SL or plan
 * order created when it fired (an exchange id no strategy placed), the owner of that TP/SL.
 */
export function fillOwner(algoOrders: readonly AlgoRow[]): (fill: FillRecord) => string {
  const byExecuted = new Map<string, string>();
  for (const a of algoOrders) if (a.order.executedOrderId !== undefined && a.strategy !== '') byExecuted.set(a.order.executedOrderId, a.strategy);
  return (fill) => (fill.strategy !== '' ? fill.strategy : (byExecuted.get(fill.orderId) ?? ''));
}

/** The fills of one run, with the orders they belong to (for the tabs' symbols). */
export interface ReportRun {
  readonly label: string;
  readonly fills: readonly FillRecord[];
  readonly orders: readonly OrderRow[];
  readonly algoOrders: readonly AlgoRow[];
}

/** The page data of a backtest: its fills on the candles, its equity and drawdown, a tab per strategy. */
export function reportPageData(result: BacktestResult, prices: readonly PriceSeries[] = []): ReportPageData {
  return pageData(result, [{ label: 'fills', fills: result.fills, orders: result.orders, algoOrders: result.algoOrders }], prices);
}

/**
 * The page data of runs over the same market (parity: the paper run and the backtest): every run's
 * fills on the candles; equity and drawdown from `result` (the first run's when there is one
 * result only).
 */
export function pageData(result: BacktestResult, runs: readonly ReportRun[], prices: readonly PriceSeries[]): ReportPageData {
  const initial = dec(result.summary.account.initialEquity);
  const tabs: ReportTab[] = [tab(ALL_TAB, 'all strategies', 'account equity (wallet + unrealized PnL)', result.equity.map((r) => [r.time, r.equity]), runs, () => true, prices)];
  result.strategyIds.forEach((id, i) => {
    const curve = result.equity.map((r): readonly [number, Decimal] => [r.time, initial.add(r.strategyPnl[i] ?? 0)]);
    tabs.push(tab(id, id, `initial equity + ${id}'s PnL (realized − fees + funding + unrealized)`, curve, runs, (owner) => owner === id, []));
  });
  const byPrice: Record<string, ReportPageData['prices'][string]> = {};
  for (const p of prices) byPrice[p.symbol] = { source: p.source, intervalMs: p.intervalMs, candles: p.candles };
  return { runs: runs.map((r) => r.label), prices: byPrice, tabs };
}

function tab(id: string, label: string, equityCaption: string, curve: ReadonlyArray<readonly [number, Decimal]>, runs: readonly ReportRun[], owns: (strategy: string) => boolean, prices: readonly PriceSeries[]): ReportTab {
  const down = drawdowns(curve.map(([, e]) => e));
  const equity = curve.map(([t, e]): Point => [t, Number(e.toFixed())]);
  const drawdown = curve.map(([t], i): Point => [t, -Number(down[i]!.toFixed()) || 0]);
  const symbols = new Set(prices.map((p) => p.symbol));
  const owners = runs.map((run) => fillOwner(run.algoOrders));
  runs.forEach((run, r) => {
    for (const f of run.fills) if (owns(owners[r]!(f))) symbols.add(f.symbol);
    for (const o of run.orders) if (owns(o.strategy)) symbols.add(o.order.symbol);
    for (const a of run.algoOrders) if (owns(a.strategy)) symbols.add(a.order.symbol);
  });
  return {
    id,
    label,
    equityCaption,
    equity: thin(equity),
    drawdown: thin(drawdown),
    symbols: [...symbols].sort().map((symbol): SymbolPane => {
      const fills = runs.flatMap((run, r) => run.fills.filter((f) => f.symbol === symbol && owns(owners[r]!(f))).map((f): FillMarker => [f.time, Number(f.price.toFixed()), f.side === 'BUY' ? 1 : -1, r]));
      fills.sort((a, b) => a[0] - b[0] || a[3] - b[3]);
      const stops = runs.flatMap((run) => run.algoOrders).filter((a) => a.order.symbol === symbol && owns(a.strategy)).map(stopMark);
      return { symbol, fills: fills.slice(0, MAX_FILL_MARKERS), stops: stops.slice(0, MAX_FILL_MARKERS), unmarked: Math.max(0, fills.length - MAX_FILL_MARKERS) };
    }),
  };
}

function stopMark(row: AlgoRow): StopMark {
  const { order } = row;
  const kind = order.kind === 'TAKE_PROFIT' ? 'TP' : order.kind === 'STOP_LOSS' ? 'SL' : 'plan';
  return [row.createTime, Number(order.triggerPrice.toFixed()), kind, order.status === 'ORDER_FILLED' ? order.updateTime : 0];
}
