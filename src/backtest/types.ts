import type { BarModel } from './bar-fill-model.js';
import type { KlineSeries } from './kline-builder.js';
import type { Decimal } from '../core/decimal.js';
import type { Logger } from '../core/logger.js';
import type { StrategyInstance } from '../engine/strategy/instance.js';
import type { StrategyRecorder } from '../engine/strategy/recorder.js';
import type { Category, PositionSide, Side } from '../model/instrument.js';
import type { MarketEvent } from '../model/market-events.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../model/orders.js';
import type { GlobalRiskLimits } from '../model/risk-limits.js';
import type { MarketEvent as RecordedEvent } from '../sim/market-stream/events.js';
import type { MarketStreamWarning } from '../sim/market-stream/stream-error.js';
import type { LatencyModel } from '../sim/port/port-latency.js';
import type { PreparedCacheOptions } from '../recording/prepared/cache.js';
import type { RecordingReplay } from '../recording/feed.js';
import type { BacktestSummary } from './summary.js';
import type { DataQualitySummary } from '../recording/quality/check.js';

/** The simulated account the strategies trade: opening futures wallet balances per margin asset. */
export interface BacktestAccount {
  readonly userId: string;
  readonly futures: Readonly<Partial<Record<Category, string>>>;
}

/** Where a backtest is, for a progress display. Times are virtual. */
export interface BacktestProgress {
  /** Market events replayed so far. */
  readonly events: number;
  readonly time: number;
  readonly startTime: number;
  readonly done: boolean;
}

export type { KlineSeries };

export interface BacktestOptions {
  /** The configured strategies, exactly as `stratd run` would run them. */
  readonly strategies: readonly StrategyInstance[];
  readonly risk: GlobalRiskLimits;
  /** Market-stream recordings, merged in time order. */
  readonly recordings: readonly string[];
  /**
   * The recordings already read (`parseRecordings`, with this `to`): replayed from memory instead of
   * reading `recordings`, with the same result. One of them serves any number of runs.
   */
  readonly recording?: RecordingReplay;
  /**
   * Replay `recordings` from their prepared (columnar) form, written beside each on first use (see
   * prepared/prepared-cache.ts); absent: read as JSONL only (`--no-cache`). Same result either way.
   */
  readonly prepared?: PreparedCacheOptions;
  /** Epoch ms. Events before it only warm up the engine's book; the strategies start then. */
  readonly from?: number;
  /** Epoch ms, inclusive: later events are not replayed. */
  readonly to?: number;
  /** Default DEFAULT_BACKTEST_LATENCY (50 ms each way). */
  readonly latency?: LatencyModel;
  readonly account: BacktestAccount;
  readonly orphans?: 'adopt' | 'cancel';
  /** Virtual interval of equity samples; default 60 000 (one a minute). */
  readonly equityIntervalMs?: number;
  /** Kline series built from the recorded trades (the config's market klines), published when each closes. */
  readonly klines?: readonly KlineSeries[];
  /** How a recording of bars (a downloaded history) fills orders; default DEFAULT_BAR_MODEL. Unused on tick recordings. */
  readonly barModel?: BarModel;
  /** The kernel's timer tick, as in `stratd run` (default 1000; 0 disables it). */
  readonly tickMs?: number;
  /**
   * The market as a daemon's strategies saw it (its sources' events at their arrival times, in order):
   * when given, the kernel gets these instead of the recorded events, which then only move the engine
   * (and `klines` is not used: the view has the daemon's own). `stratd parity` replays the paper
   * daemon's view this way while the engine matches on the simulator's full stream.
   */
  readonly marketView?: readonly ObservedMarketEvent[];
  /** The data-quality scan of the recordings (checked by the caller): listed in the summary and report. */
  readonly dataQuality?: DataQualitySummary;
  readonly logger?: Logger;
  /** Called every PROGRESS_EVERY_EVENTS events and once at the end. */
  readonly onProgress?: (progress: BacktestProgress) => void;
  /** Something skipped in a recording (a torn last line). */
  readonly onWarning?: (warning: MarketStreamWarning) => void;
  /**
   * Every recorded event as the replay applies it, warm-up included, in the recordings' time order (the
   * events a replay of `recording` hands out, up to `to`). Not called for a recording of bars: the engine
   * then replays the bar model's path through each bar, not the recorded events.
   */
  readonly onRecordedEvent?: (event: RecordedEvent) => void;
  /** Records the strategies' intents and indicator values as they run (stratd check-strategy). */
  readonly strategyRecorder?: StrategyRecorder;
}

/** A market event as a daemon's kernel received it. */
export interface ObservedMarketEvent {
  /** Local epoch ms of its arrival. */
  readonly at: number;
  readonly event: MarketEvent;
}

/** One execution of the account's orders, as the engine made it. `strategy` is '' for orders no strategy owns (liquidations). */
export interface FillRecord {
  readonly time: number;
  readonly strategy: string;
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly tradeId: string;
  readonly side: Side;
  readonly positionSide: PositionSide;
  readonly isClose: boolean;
  readonly isMaker: boolean;
  readonly price: Decimal;
  /** Contracts. */
  readonly qty: Decimal;
  /** Commission paid (negative: a rebate), in `feeAsset`. */
  readonly fee: Decimal;
  readonly feeAsset: string;
  readonly realizedPnl: Decimal;
}

/** An order the engine accepted, in its last state. */
export interface OrderRow {
  readonly createTime: number;
  readonly strategy: string;
  readonly order: OrderSnapshot;
}

/** Equity at one sample time: the account's (wallet + unrealized PnL), and each strategy's PnL so far. */
export interface EquityRow {
  readonly time: number;
  readonly equity: Decimal;
  /** Per strategy, in `BacktestResult.strategyIds` order. */
  readonly strategyPnl: readonly Decimal[];
  /** The last sample, taken at the end rather than on the interval grid. */
  readonly partial: boolean;
}

/** A plan or TP/SL order the engine accepted, in its last state (the report marks TP/SL on the price charts). */
export interface AlgoRow {
  readonly createTime: number;
  readonly strategy: string;
  readonly order: AlgoOrderSnapshot;
}

export interface BacktestResult {
  readonly summary: BacktestSummary;
  readonly fills: readonly FillRecord[];
  readonly orders: readonly OrderRow[];
  /** Plan and TP/SL orders, in the order they first appeared. */
  readonly algoOrders: readonly AlgoRow[];
  readonly equity: readonly EquityRow[];
  /** Sorted. */
  readonly strategyIds: readonly string[];
  readonly warnings: readonly MarketStreamWarning[];
}
