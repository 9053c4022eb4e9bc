import type { Observable, SchedulerLike } from 'rxjs';
import type { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { CacheView } from '../../model/cache-view.js';
import type { Intent } from '../../model/intents.js';
import type { KeyValueStore } from '../../model/journal.js';
import type { IndicatorProbe } from '../indicators/indicator-probe.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../../model/orders.js';
import type { Position } from '../../model/account.js';
import type { PositionSide } from '../../model/instrument.js';
import type { LedgerPosition } from '../../model/ledger.js';
import type { MarketEventType } from '../../model/market-events.js';

/**
 * The strategy API: everything a module under strategies/ may use. A strategy reads the cache, reacts
 * to events and emits intents; it never holds the exchange client. Both styles run on the same runtime:
 * a stream strategy is wrapped into handlers (see `streamToHandlers`).
 */

/** What a running strategy instance is given (read-only). */
export interface StrategyContext<P> {
  /** The instance id from the YAML (`strategies[].id`). */
  readonly id: string;
  readonly symbols: readonly string[];
  readonly params: P;
  readonly cache: CacheView;
  readonly clock: Clock;
  /** Schedule own timers here (virtual in backtests, real live). */
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
  /** The instance's own persistent key-value store (survives restarts). */
  readonly store: KeyValueStore;
  /** This instance's open regular orders (all its symbols, or one). */
  openOrders(symbol?: string): readonly OrderSnapshot[];
  /** This instance's open plan and TP/SL orders. */
  openAlgoOrders(symbol?: string): readonly AlgoOrderSnapshot[];
  /** The client order id an intent with this `key` gets: known before the order exists. */
  clientOrderIdFor(key: string): string;
  /**
   * Set by the runtime while stratd check-strategy records the instance's indicator values; `new
   * Indicators(ctx)` reports to it. A strategy never calls it itself.
   */
  readonly indicatorProbe?: IndicatorProbe;
  /**
   * This instance's OWN position on a symbol side: what its fills (and claims) built, minus what it
   * closed or lost; undefined or qty 0 when it holds nothing. Other strategies' and external holdings
   * on the same symbol are not in it.
   */
  position(symbol: string, positionSide: PositionSide): LedgerPosition | undefined;
  /** The whole account, shared with every other strategy and manual trading. */
  readonly account: AccountView;
}

/** The account as the exchange reports it (all strategies' holdings and the external ones together). */
export interface AccountView {
  position(symbol: string, positionSide: PositionSide): Position | undefined;
  positions(): readonly Position[];
}

/** Handler style: the runtime awaits each handler before delivering the next event. */
export interface StrategyHandlers {
  onStart?(): void | Promise<void>;
  onEvent?(event: BusEvent): void | Promise<void>;
  /** Last chance to emit clean-up intents (cancel-all), which are still executed. */
  onStop?(): void | Promise<void>;
}

export interface HandlerContext<P> extends StrategyContext<P> {
  emit(intent: Intent): void;
}

interface DefinitionBase<S extends z.ZodType> {
  readonly name: string;
  readonly description: string;
  /** Validates `strategies[].params` at start; defaults belong here. */
  readonly params: S;
  /**
   * `own` (default): the strategy manages its own ledger: closing intents close at most what its fills
   * built. `account`: a guard that manages every position on its symbols, whoever opened it (its
   * closing fills are taken from the owners' ledgers, who get a `ledger.positionLost`).
   */
  readonly positionScope?: 'own' | 'account';
  /**
   * The kinds of its symbols' market data the strategy handles as events (`['market.book']`); absent:
   * every kind. Other kinds never reach it (the cache still holds them: `ctx.cache` reads them), so a
   * strategy that ignores trades pays nothing for them. Account, order and kernel events are not affected.
   */
  readonly marketEvents?: readonly MarketEventType[];
}

export interface HandlerStrategyDefinition<S extends z.ZodType> extends DefinitionBase<S> {
  readonly style: 'handlers';
  create(ctx: HandlerContext<z.output<S>>): StrategyHandlers;
}

/** RxJS style: a function from the instance's event stream to its intent stream. */
export interface StreamStrategyDefinition<S extends z.ZodType> extends DefinitionBase<S> {
  readonly style: 'stream';
  run(ctx: StrategyContext<z.output<S>>, events$: Observable<BusEvent>): Observable<Intent>;
}

export type StrategyDefinition<S extends z.ZodType = z.ZodType> = HandlerStrategyDefinition<S> | StreamStrategyDefinition<S>;

/** Declares a handler-style strategy (the default export of strategies/<name>/index.ts). */
export function defineStrategy<S extends z.ZodType>(definition: Omit<HandlerStrategyDefinition<S>, 'style'>): HandlerStrategyDefinition<S> {
  return { style: 'handlers', ...definition };
}

/** Declares an RxJS-style strategy. */
export function defineStreamStrategy<S extends z.ZodType>(definition: Omit<StreamStrategyDefinition<S>, 'style'>): StreamStrategyDefinition<S> {
  return { style: 'stream', ...definition };
}

export { decimalParam } from './params.js';
export { signalIntents } from './api-signals.js';
export type { PositionSize, SignalIntentOptions } from './api-signals.js';
export type { ExternalSignal, SignalAction, SignalReceived } from '../../model/signal-events.js';
export type { BusEvent, CacheView, Intent, KeyValueStore, LedgerPosition };
export { Indicators, KLINE_INTERVALS, PRICE_SOURCES, crossing } from './api-indicators.js';
export type { Bands, BandsSpec, Crossing, Indicator, IndicatorSource, LineSpec, PeriodSpec, PriceSource, SeriesSpec } from './api-indicators.js';
