import type { Decimal } from '../core/decimal.js';
import { dec } from '../core/decimal.js';
import type { EquityPoint } from './metrics.js';
import { performanceOf } from './metrics.js';
import type { PositionBook } from './position-book.js';
import type { DataQualitySummary } from '../recording/quality/check.js';
import type { FundingSeriesFigures } from './funding/funding-coverage.js';

/**
 * summary.json. Money is decimal text (at most 8 decimals), ratios are numbers (6 decimals) or null
 * when undefined; keys come in a fixed order and strategies sorted by id, so equal runs give equal bytes.
 */
export interface BacktestSummary {
  readonly format: 'stratd-backtest-summary';
  readonly version: 1;
  readonly recordings: ReadonlyArray<{ readonly path: string; readonly events: number }>;
  readonly range: { readonly from: number; readonly to: number; readonly fromIso: string; readonly toIso: string };
  readonly latency: { readonly orderLatencyMs: number; readonly ackLatencyMs: number };
  readonly account: { readonly userId: string; readonly balances: Readonly<Record<string, string>>; readonly initialEquity: string };
  readonly equityIntervalMs: number;
  readonly annualization: string;
  /** Market events replayed (warm-up before `from` excluded). */
  readonly events: number;
  readonly fillsSha256: string;
  /** Present when the recordings held bars: how fills were modelled ("fills are bar-modelled (…)"). */
  readonly fillModel?: string;
  readonly warnings: readonly string[];
  /** What the data-quality scan found in the range (absent when no scan ran, e.g. inside a sweep). */
  readonly dataQuality?: DataQualitySummary;
  /** Per symbol of the recordings: the funding series the run settled from, and whether it was complete. */
  readonly fundingSeries: Readonly<Record<string, FundingSeriesFigures>>;
  readonly total: OwnerFigures;
  readonly strategies: Readonly<Record<string, OwnerFigures>>;
}

export interface OwnerFigures {
  readonly orders: number;
  readonly fills: number;
  /** Intents the risk engine denied. */
  readonly denied: number;
  /** Commands the exchange refused. */
  readonly rejected: number;
  readonly volume: string;
  /** Trading PnL: realized + unrealized, before fees and funding. */
  readonly tradingPnl: string;
  readonly fees: string;
  /** Received (positive) or paid (negative). */
  readonly funding: string;
  readonly realizedPnl: string;
  readonly unrealizedPnl: string;
  /** tradingPnl − fees + funding. */
  readonly netPnl: string;
  readonly finalEquity: string;
  readonly return: number;
  readonly annualizedReturn: number | null;
  readonly maxDrawdown: number;
  readonly maxDrawdownAmount: string;
  readonly sharpe: number | null;
  readonly sortino: number | null;
  readonly calmar: number | null;
  /** Closing fills whose realized PnL beat their fee, over all closing fills. */
  readonly winRate: number | null;
  /** Share of the run's time with a position open. */
  readonly exposure: number;
}

export const ANNUALIZATION = 'per-interval returns of the equity samples; 365-day year of 24 h; risk-free rate 0; annualized return = mean × periods per year';

export function money(value: Decimal): string {
  return value.toDecimalPlaces(8).toFixed();
}

export function ratio(value: Decimal): number {
  return Number(value.toDecimalPlaces(6).toFixed(6));
}

function optionalRatio(value: Decimal | undefined): number | null {
  return value === undefined ? null : ratio(value);
}

export interface OwnerInput {
  readonly book: PositionBook;
  readonly orders: number;
  readonly denied: number;
  readonly rejected: number;
  /** Unrealized PnL at the end. */
  readonly unrealizedPnl: Decimal;
  /** The owner's equity curve (for a strategy: initial equity + its PnL). */
  readonly curve: readonly EquityPoint[];
  readonly initialEquity: Decimal;
  readonly startTime: number;
  readonly endTime: number;
  readonly intervalMs: number;
}

export function ownerFigures(input: OwnerInput): OwnerFigures {
  const { book } = input;
  const tradingPnl = book.realizedPnl.add(input.unrealizedPnl);
  const netPnl = tradingPnl.sub(book.fees).add(book.funding);
  const performance = performanceOf(input.curve, input.intervalMs);
  return {
    orders: input.orders,
    fills: book.fills,
    denied: input.denied,
    rejected: input.rejected,
    volume: money(book.volume),
    tradingPnl: money(tradingPnl),
    fees: money(book.fees),
    funding: money(book.funding),
    realizedPnl: money(book.realizedPnl),
    unrealizedPnl: money(input.unrealizedPnl),
    netPnl: money(netPnl),
    finalEquity: money(input.curve[input.curve.length - 1]?.equity ?? input.initialEquity),
    return: ratio(performance.totalReturn),
    annualizedReturn: optionalRatio(performance.annualizedReturn),
    maxDrawdown: ratio(performance.maxDrawdown),
    maxDrawdownAmount: money(performance.maxDrawdownAmount),
    sharpe: optionalRatio(performance.sharpe),
    sortino: optionalRatio(performance.sortino),
    calmar: optionalRatio(performance.calmar),
    winRate: book.closingFills === 0 ? null : ratio(dec(book.winningFills).div(book.closingFills)),
    exposure: ratio(book.exposure(input.startTime, input.endTime)),
  };
}

export function summaryJson(summary: BacktestSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}
