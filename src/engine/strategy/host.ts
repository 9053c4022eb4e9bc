import type { TimeSource } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { BusEvent } from '../../model/bus-events.js';
import { isMarketEvent } from '../../model/bus-events.js';
import type { MarketEvent } from '../../model/market-events.js';
import type { CacheView } from '../../model/cache-view.js';
import type { Intent } from '../../model/intents.js';
import type { KeyValueStore } from '../../model/journal.js';
import { ClosedKlineView } from '../closed-kline-view.js';
import { interestedIn } from '../interest.js';
import type { OrderOwnership } from '../interest.js';
import type { HandlerContext, StrategyHandlers } from './api.js';
import type { StrategyInstance } from './instance.js';
import type { StrategyRecorder } from './recorder.js';
import type { PositionSide } from '../../model/instrument.js';
import type { LedgerPosition } from '../../model/ledger.js';
import type { RunnerLimits, RunnerState } from './runner.js';
import { DEFAULT_RUNNER_LIMITS, StrategyRunner } from './runner.js';
import { handlersOf } from './wrapped-definition.js';
import type { Trigger } from '../tick-to-order.js';

/** The kernel's records an instance's context reads through (methods: see OrderOwnership). */
export interface StrategyOwners extends OrderOwnership {
  /** The instance's own ledger position (the kernel's ledgers). */
  ownPosition(strategyId: string, symbol: string, positionSide: PositionSide): LedgerPosition | undefined;
  clientOrderIdFor(strategyId: string, key: string): string;
}

export interface StrategyHostOptions {
  readonly instances: readonly StrategyInstance[];
  readonly cache: CacheView;
  readonly time: TimeSource;
  readonly logger: Logger;
  readonly keyValue: (strategyId: string) => KeyValueStore;
  readonly limits?: RunnerLimits;
  /** `trigger`: the market event the instance was handling when it emitted, when its arrival is known. */
  readonly onIntent: (strategyId: string, intent: Intent, trigger: Trigger | undefined) => void;
  readonly owners: StrategyOwners;
  readonly publish: (event: BusEvent) => void;
  /** Records each instance's intents and indicator values (stratd check-strategy); absent: nothing is. */
  readonly recorder?: StrategyRecorder;
}

interface Hosted {
  readonly instance: StrategyInstance;
  readonly symbols: ReadonlySet<string>;
  /** The definition's `marketEvents`: the kinds of market data it handles; undefined: every kind. */
  readonly marketTypes: ReadonlySet<string> | undefined;
  runner: StrategyRunner;
}

/** The strategy instances of the daemon: builds their contexts, routes events to them, isolates failures. */
export class StrategyHost {
  private readonly hosted = new Map<string, Hosted>();
  /** The same, in order, for dispatch (every event of a replay walks it). */
  private readonly list: Hosted[] = [];
  /** Strategies read closed klines only (see ClosedKlineView). */
  private readonly view: CacheView;

  constructor(private readonly options: StrategyHostOptions) {
    this.view = new ClosedKlineView(options.cache);
    for (const instance of options.instances) {
      const kinds = instance.definition.marketEvents;
      const hosted: Hosted = { instance, symbols: new Set(instance.symbols), marketTypes: kinds === undefined ? undefined : new Set(kinds), runner: this.createRunner(instance) };
      this.hosted.set(instance.id, hosted);
      this.list.push(hosted);
    }
  }

  private createRunner(instance: StrategyInstance): StrategyRunner {
    const { time, logger, keyValue, onIntent, publish, recorder } = this.options;
    const cache = this.view;
    const log = logger.child({ component: 'strategy', strategy: instance.id });
    const ctx: HandlerContext<unknown> = {
      id: instance.id,
      symbols: instance.symbols,
      params: instance.params,
      cache,
      clock: time.clock,
      scheduler: time.scheduler,
      logger: log,
      store: keyValue(instance.id),
      openOrders: (symbol) => cache.openOrders(symbol).filter((o) => this.options.owners.owns(o.clientOrderId, instance.id)),
      openAlgoOrders: (symbol) => cache.openAlgoOrders(symbol).filter((o) => this.options.owners.owns(o.clientOrderId, instance.id)),
      clientOrderIdFor: (key) => this.options.owners.clientOrderIdFor(instance.id, key),
      position: (symbol, positionSide) => this.options.owners.ownPosition(instance.id, symbol, positionSide),
      account: { position: (symbol, positionSide) => cache.position(symbol, positionSide), positions: () => cache.positions() },
      emit: (intent) => {
        // A stopped or failed instance emits nothing more (its own timers may still fire).
        const state = runner.state;
        if (state === 'running') recorder?.intent(instance.id, time.clock.now(), intent);
        if (state === 'running' || state === 'stopping') onIntent(instance.id, intent, runner.trigger);
      },
      ...(recorder === undefined ? {} : { indicatorProbe: (name, kline, value) => recorder.indicator(instance.id, time.clock.now(), name, kline, value) }),
    };
    const definition = instance.definition;
    let handlers: StrategyHandlers;
    try {
      handlers = handlersOf(definition, ctx);
    } catch (error: unknown) {
      handlers = {
        onStart: () => {
          throw error;
        },
      };
    }
    const runner: StrategyRunner = new StrategyRunner(instance.id, handlers, time.clock, log, {
      onFailure: (error) => publish({ type: 'strategy.stopped', time: time.clock.now(), strategyId: instance.id, reason: describe(error), failed: true }),
      onDropped: (count) => publish({ type: 'bus.dropped', time: time.clock.now(), strategyId: instance.id, count }),
    }, this.options.limits ?? DEFAULT_RUNNER_LIMITS);
    return runner;
  }

  async startAll(): Promise<void> {
    for (const hosted of this.hosted.values()) await this.startRunner(hosted);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.hosted.values()].map((h) => this.stopRunner(h, 'daemon stopping')));
  }

  /** Stops one instance (operator command); its clean-up intents still run. */
  async stop(id: string): Promise<boolean> {
    const hosted = this.hosted.get(id);
    if (hosted === undefined) return false;
    await this.stopRunner(hosted, 'stopped by operator');
    return true;
  }

  /** Starts a stopped or failed instance again with a fresh runner. */
  async start(id: string): Promise<boolean> {
    const hosted = this.hosted.get(id);
    if (hosted === undefined) return false;
    if (hosted.runner.state === 'running') return true;
    hosted.runner = this.createRunner(hosted.instance);
    await this.startRunner(hosted);
    return true;
  }

  /** Starts the runner; `strategy.started` once its onStart returned (one that threw has published its failure). */
  private async startRunner(hosted: Hosted): Promise<void> {
    await hosted.runner.start();
    if (hosted.runner.state === 'running') this.options.publish({ type: 'strategy.started', time: this.options.time.clock.now(), strategyId: hosted.instance.id });
  }

  private async stopRunner(hosted: Hosted, reason: string): Promise<void> {
    if (hosted.runner.state !== 'running') return;
    await hosted.runner.stop();
    this.options.publish({ type: 'strategy.stopped', time: this.options.time.clock.now(), strategyId: hosted.instance.id, reason, failed: false });
  }

  /** Delivers an event to the instances interested in it; `arrivedAt`/`ingestedAt`: when its data arrived and entered the kernel (stopwatch ms). */
  dispatch(event: BusEvent, arrivedAt?: number, ingestedAt?: number): void {
    if (isMarketEvent(event)) {
      this.dispatchMarket(event, arrivedAt, ingestedAt);
      return;
    }
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const hosted = list[i]!;
      if (interestedIn(event, hosted.instance.id, hosted.symbols, this.options.owners)) hosted.runner.deliver(event, arrivedAt, ingestedAt);
    }
  }

  /**
   * `dispatch` of a market event (the kernel knows it is one): an instance receives its symbols' market
   * data (`interestedIn`) of the kinds its definition handles (`marketEvents`), so the test is two set
   * lookups, without the switch over every event type; the others never reach its runner.
   */
  dispatchMarket(event: MarketEvent, arrivedAt?: number, ingestedAt?: number): void {
    // A forming kline is not given to strategies: they see each kline once, closed, at its end.
    if (event.type === 'market.kline' && !event.closed) return;
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const hosted = list[i]!;
      const kinds = hosted.marketTypes;
      if (hosted.symbols.has(event.symbol) && (kinds === undefined || kinds.has(event.type))) hosted.runner.deliverMarket(event, arrivedAt, ingestedAt);
    }
  }

  /** Resolves when every instance has handled everything queued (backtests, tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.hosted.values()].map((h) => h.runner.idle()));
  }

  state(id: string): RunnerState | undefined {
    return this.hosted.get(id)?.runner.state;
  }

  status(): ReadonlyArray<{ id: string; state: RunnerState; symbols: readonly string[]; queued: number; delivered: number; lastError?: string }> {
    return [...this.hosted.values()].map(({ instance, runner }) => ({
      id: instance.id,
      state: runner.state,
      symbols: instance.symbols,
      queued: runner.queued,
      delivered: runner.delivered,
      ...(runner.lastError === undefined ? {} : { lastError: describe(runner.lastError) }),
    }));
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
