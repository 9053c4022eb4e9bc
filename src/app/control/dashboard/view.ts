import { decText } from '../../../core/decimal.js';
import type { KlineInterval, KlineUpdated } from '../../../model/market-events.js';
import type { DaemonStatus } from '../status.js';
import type { DashboardHistory, EquityPoint, FeedItem, FillItem } from './history.js';

/** What the view reads besides /status: the kernel's cache (klines) and the history. */
export interface DashboardSources {
  readonly status: () => DaemonStatus;
  readonly history: DashboardHistory;
  readonly klines: (symbol: string, interval: KlineInterval) => readonly KlineUpdated[];
  /** The symbols charted, each with the kline interval its candles come from (undefined: none polled). */
  readonly charts: ReadonlyArray<{ readonly symbol: string; readonly interval: KlineInterval | undefined }>;
}

export interface Candle {
  /** Open time, epoch seconds (the chart's time scale). */
  readonly time: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
}

export interface ChartView {
  readonly symbol: string;
  readonly interval: KlineInterval | null;
  /** All kept candles in a full view, the last two in an update (the forming one may have changed). */
  readonly candles: readonly Candle[];
  readonly fills: readonly FillItem[];
  /** The open orders and plan/TP-SL triggers on this symbol, as price lines. */
  readonly lines: ReadonlyArray<{ readonly price: string; readonly side: string; readonly strategy: string; readonly label: string }>;
}

/** One push of the dashboard: `full` when a client connects, `update` after that. */
export interface DashboardView {
  readonly kind: 'full' | 'update';
  readonly status: DaemonStatus;
  readonly feed: readonly FeedItem[];
  readonly charts: readonly ChartView[];
  readonly equity: { readonly asset: string | null; readonly points: readonly EquityPoint[] };
}

const FEED_LINES = 50;
const UPDATE_CANDLES = 2;

export function dashboardView(sources: DashboardSources, kind: 'full' | 'update'): DashboardView {
  const status = sources.status();
  const equity = sources.history.equityCurve();
  const current = sources.history.currentEquity();
  return {
    kind,
    status,
    feed: sources.history.feed(FEED_LINES),
    charts: sources.charts.map(({ symbol, interval }) => chartView(sources, status, symbol, interval, kind)),
    equity: { asset: equity.asset ?? null, points: kind === 'full' ? equity.points : current === undefined ? [] : [current] },
  };
}

function chartView(sources: DashboardSources, status: DaemonStatus, symbol: string, interval: KlineInterval | undefined, kind: 'full' | 'update'): ChartView {
  const klines = interval === undefined ? [] : sources.klines(symbol, interval);
  const kept = kind === 'full' ? klines : klines.slice(-UPDATE_CANDLES);
  const text = (value: string | number | undefined): string => (value === undefined ? '' : String(value));
  return {
    symbol,
    interval: interval ?? null,
    candles: kept.map((k) => ({ time: Math.floor(k.openTime / 1000), open: decText(k.open), high: decText(k.high), low: decText(k.low), close: decText(k.close) })),
    fills: sources.history.fills(symbol),
    lines: [
      ...status.openOrders
        .filter((o) => o.symbol === symbol && o.price !== undefined && o.price !== '0')
        .map((o) => ({ price: text(o.price), side: text(o.side), strategy: text(o.strategy), label: `${text(o.strategy)} ${text(o.side)} ${text(o.quantity)}` })),
      ...status.openAlgoOrders
        .filter((o) => o.symbol === symbol)
        .map((o) => ({ price: text(o.triggerPrice), side: text(o.side), strategy: text(o.strategy), label: `${text(o.strategy)} ${text(o.kind)} ${text(o.side)}` })),
    ],
  };
}
