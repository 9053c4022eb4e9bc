import type { Observable, Subscription } from 'rxjs';
import type { Stopwatch, TimeSource } from '../core/clock.js';
import { stopwatchOf } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Result } from '../core/result.js';
import { err, ok } from '../core/result.js';
import type { BusEvent } from '../model/bus-events.js';
import { isMarketEvent } from '../model/bus-events.js';
import type { MarketEvent } from '../model/market-events.js';
import type { ExchangeFailure, ExchangePort } from '../model/exchange-port.js';
import { isOpening } from '../model/instrument.js';
import type { PositionSide } from '../model/instrument.js';
import type { Decimal } from '../core/decimal.js';
import type { ClaimRefused } from './ledger/ledgers.js';
import type { Intent } from '../model/intents.js';
import type { KeyValueStore, OrderJournal } from '../model/journal.js';
import type { KillSwitchChanged, ProtectionChanged } from '../model/kernel-events.js';
import type { GlobalRiskLimits } from '../model/risk-limits.js';
import { Cache } from './cache.js';
import { EventBus } from '../core/event-bus.js';
import { emptyObjectArray } from '../core/empty-arrays.js';
import { Executor } from './execution/executor.js';
import { isStorageFailure } from './execution/journal-health.js';
import type { ReconcileReport } from './execution/reconciler.js';
import { Reconciler } from './execution/reconciler.js';
import { instrumentChanges } from './instrument-changes.js';
import { KernelMetrics } from './kernel-metrics.js';
import { KernelOwners } from './kernel-owners.js';
import { applyProtection } from './risk/protections/protection-actions.js';
import { RiskEngine } from './risk/risk-engine.js';
import { StrategyHost } from './strategy/host.js';
import type { StrategyRecorder } from './strategy/recorder.js';
import type { DailyLossOverride, ProtectionStatus, ResumeRefused, Resumed } from './risk/risk-engine.js';
import { Ledgers } from './ledger/ledgers.js';
import { orphanedProtection } from './ledger/orphaned-protection.js';
import { ledgerStatus } from './ledger/status.js';
import type { LedgerStatusRow } from './ledger/status.js';
import type { PositionClaimed, PositionLost } from '../model/ledger.js';
import type { StrategyInstance } from './strategy/instance.js';
import type { RunnerLimits } from './strategy/runner.js';
import { approvedTrigger } from './tick-to-order.js';
import type { Trigger } from './tick-to-order.js';

const RECONCILE_RETRY_FIRST_MS = 250;
/** The key-value namespace of the ledgers in the state file (not a strategy id: those never contain `@`). */
export const LEDGER_STORE_ID = '@ledgers';
const RECONCILE_RETRY_MAX_MS = 15_000;
/** The key-value namespace of the risk engine's journaled protection trips (strategy ids never start with '@'). */
const PROTECTION_STORE = '@protections';

export type KernelState = 'created' | 'starting' | 'running' | 'stopping' | 'stopped';

export interface KernelOptions {
  readonly time: TimeSource;
  readonly port: ExchangePort;
  readonly journal: OrderJournal;
  /**
   * The state's namespace, part of every client order id so that a new state never repeats an id of
   * an earlier one on the same account (the daemon passes its state store's); none in backtests.
   */
  readonly idNamespace?: string;
  readonly keyValue: (strategyId: string) => KeyValueStore;
  readonly logger: Logger;
  readonly metrics?: KernelMetrics;
  readonly globalLimits: GlobalRiskLimits;
  readonly strategies: readonly StrategyInstance[];
  /** Every symbol the daemon trades or watches (reconciliation and fills cover these). */
  readonly symbols: readonly string[];
  /** Open orders the journal does not know: adopt them (they stay, owned by no strategy) or cancel them. */
  readonly orphans: 'adopt' | 'cancel';
  /** Interval of the `timer` tick event strategies receive; 0 disables it. */
  readonly tickMs?: number;
  readonly runnerLimits?: RunnerLimits;
  /** Delay before an unknown order outcome is queried. */
  readonly settleAfterMs?: number;
  /** Records the strategies' intents and indicator values (stratd check-strategy). */
  readonly strategyRecorder?: StrategyRecorder;
}

/**
 * The kernel: cache, strategies, risk engine and executor around one event bus. The same object runs
 * live, paper and backtest; only the ExchangePort, the sources feeding `ingest` and the TimeSource
 * differ. Sources push events into `ingest`; everything the kernel sees is re-published on `events$`.
 */
export class Kernel {
  readonly cache = new Cache();
  readonly metrics: KernelMetrics;
  readonly risk: RiskEngine;
  readonly executor: Executor;
  readonly strategies: StrategyHost;
  /** Which part of the account's position belongs to which strategy (and to nobody: `external`). */
  readonly ledgers: Ledgers;
  private readonly reconciler: Reconciler;
  private readonly log: Logger;
  private readonly bus = new EventBus<BusEvent>();
  /** The executor's owner lookup for metrics, made once (not a closure per event). */
  private readonly ownerOfOrder = (clientOrderId: string): string | undefined => this.executor.ownerOf(clientOrderId);
  private readonly pending = emptyObjectArray<BusEvent>();
  private readonly submissionFailures = new Map<string, (error: unknown) => void>();
  /** When the data of a pending event arrived and when it entered the kernel (stopwatch ms), for the events whose source says so. */
  private readonly arrivals = new Map<BusEvent, { readonly arrivedAt: number; readonly ingestedAt: number }>();
  private readonly stopwatch: Stopwatch;
  private dispatching = false;
  private resyncing = false;
  private readonly heldDuringResync: BusEvent[] = [];
  private reconcileChain: Promise<unknown> = Promise.resolve();
  private reconcileQueued = false;
  /** A failed run is retried with backoff until one succeeds (a 5xx must not leave the cache stale until the next job). */
  private reconcileFailures = 0;
  private reconcileRetry: Subscription | undefined;
  private tick: Subscription | undefined;
  state: KernelState = 'created';
  lastReconcile: { readonly time: number; readonly ok: boolean; readonly report?: ReconcileReport; readonly error?: string } | undefined;

  constructor(private readonly options: KernelOptions) {
    const { time, logger } = options;
    this.log = logger.child({ component: 'kernel' });
    this.metrics = options.metrics ?? new KernelMetrics();
    this.stopwatch = stopwatchOf(time);
    this.executor = new Executor({
      port: options.port,
      journal: options.journal,
      time,
      logger: logger.child({ component: 'executor' }),
      bus: this,
      ...(options.idNamespace === undefined ? {} : { idNamespace: options.idNamespace }),
      ...(options.settleAfterMs === undefined ? {} : { settleAfterMs: options.settleAfterMs }),
      onWritten: (command, stamps) => this.metrics.tickToOrder.observe(command.type, stamps),
      onJournalHealth: (state) => this.metrics.journalHealth(state),
    });
    const accountScoped = new Set(options.strategies.filter((s) => s.definition.positionScope === 'account').map((s) => s.id));
    const strategyIds = options.strategies.map((s) => s.id);
    const owners = new KernelOwners(this, time.clock, strategyIds, accountScoped);
    this.risk = new RiskEngine({
      cache: this.cache,
      clock: time.clock,
      global: options.globalLimits,
      strategies: new Map(options.strategies.map((s) => [s.id, { symbols: s.symbols, limits: s.limits }])),
      orders: this.executor,
      protectionStore: options.keyValue(PROTECTION_STORE),
      holdings: owners,
    });
    this.ledgers = new Ledgers({
      cache: this.cache,
      clock: time.clock,
      store: options.keyValue(LEDGER_STORE_ID),
      strategyIds,
      owners,
      claims: options.strategies.flatMap((s) => (s.claims ?? []).map((c) => ({ strategyId: s.id, symbol: c.symbol, sides: c.sides }))),
      logger: logger.child({ component: 'ledgers' }),
    });
    this.reconciler = new Reconciler({
      port: options.port,
      journal: options.journal,
      cache: this.cache,
      executor: this.executor,
      symbols: options.symbols,
      strategies: options.strategies.map((s) => s.id),
      orphans: options.orphans,
      unattributedFills: () => this.ledgers.unattributed(),
      clock: time.clock,
      logger: logger.child({ component: 'reconciler' }),
      publish: (event) => this.ingest(event),
    });
    this.strategies = new StrategyHost({
      instances: options.strategies,
      cache: this.cache,
      time,
      logger,
      keyValue: options.keyValue,
      ...(options.runnerLimits === undefined ? {} : { limits: options.runnerLimits }),
      onIntent: (strategyId, intent, trigger) => this.handleIntent(strategyId, intent, trigger),
      owners,
      publish: (event) => this.ingest(event),
      ...(options.strategyRecorder === undefined ? {} : { recorder: options.strategyRecorder }),
    });
  }

  /** Every event after the cache has applied it (stale and duplicate ones are not re-published). */
  get events$(): Observable<BusEvent> {
    return this.bus.observable;
  }

  /** `events$` for an in-process listener that is a plain function (a backtest's accounting): called directly, its throw reaches the kernel; the answer removes it. */
  onEvent(listener: (event: BusEvent) => void): () => void {
    return this.bus.listen(listener);
  }

  /** Loads instruments, reconciles with the exchange, then starts the strategies. */
  async start(): Promise<Result<void, ExchangeFailure>> {
    if (this.state !== 'created') return ok(undefined);
    this.state = 'starting';
    const loaded = await this.refreshInstruments();
    if (!loaded.ok) {
      this.state = 'created';
      return loaded;
    }
    const reconciled = await this.reconcile(0);
    if (!reconciled.ok) {
      this.state = 'created';
      return err(reconciled.error);
    }
    this.state = 'running';
    // Trips journaled before a restart hold again (their actions ran then); published for status and metrics.
    for (const change of this.risk.restoredProtections()) this.ingest(change);
    await this.strategies.startAll();
    this.startTicks();
    return ok(undefined);
  }

  /**
   * The one entry point of every source: market poller, user stream, jobs, executor replies.
   * `arrivedAt`: when the event's data arrived (stopwatch ms: `TimeSource.stopwatch`); order requests
   * a strategy emits while handling it are timed from then to their write (tick-to-order).
   */
  ingest(event: BusEvent, arrivedAt?: number): void {
    if (arrivedAt !== undefined) this.arrivals.set(event, { arrivedAt, ingestedAt: this.stopwatch.now() });
    const pending = this.pending;
    if (this.dispatching) {
      pending.push(event);
      return;
    }
    this.dispatching = true;
    try {
      // Nothing waits (always, unless a process threw): the event goes first without passing the queue, as
      // every market event of a replay does; what its handling ingests queues behind it as before.
      if (pending.length === 0) this.process(event);
      else pending.push(event);
      for (let next = pending.shift(); next !== undefined; next = pending.shift()) this.process(next);
    } finally {
      this.dispatching = false;
    }
  }

  private process(input: BusEvent): void {
    if (isMarketEvent(input)) {
      this.processMarket(input);
      return;
    }
    if (this.resyncing && input.type.startsWith('account.') && input.type !== 'account.resynced' && 'source' in input && input.source === 'stream') {
      this.heldDuringResync.push(input);
      return;
    }
    if (input.type === 'account.resynced') {
      // The snapshot is in: apply what the stream said meanwhile, then trust events (and intents) again,
      // so strategies reacting to the resync are not refused as NOT_READY.
      this.resyncing = false;
      for (const held of this.heldDuringResync.splice(0)) this.process(held);
    }
    // Most events come from sources that do not time their arrival (a replay: none): no lookup then.
    const arrival = this.arrivals.size === 0 ? undefined : this.arrivals.get(input);
    if (arrival !== undefined) this.arrivals.delete(input);
    const event = this.enrich(input);
    if (!this.cache.apply(event)) return;
    const ledgerEvents = this.ledgers.onEvent(event);
    this.executor.onEvent(event);
    this.ledgers.afterOwnership(event);
    this.reconciler.onEvent(event);
    const killSwitch = this.risk.onEvent(event);
    const protections = this.risk.protectionChanges(event);
    this.metrics.count(event, this.ownerOfOrder);
    this.strategies.dispatch(event, arrival?.arrivedAt, arrival?.ingestedAt);
    this.bus.next(event);
    this.afterRisk(killSwitch, protections);
    // Indexed: a for-of made an iterator and its results for every account event (most have no ledger event).
    for (let i = 0; i < ledgerEvents.length; i++) this.ingest(ledgerEvents[i]!);
    if (event.type === 'ledger.positionLost') void this.cancelOrphanedProtection(event);
    if (event.type === 'risk.killSwitch' && event.engaged) void this.cancelEverything(event.reason);
    // The start-up reconciliation covers a connect that happens before start().
    if (event.type === 'stream.connected' && this.state !== 'created') void this.reconcile(event.epoch);
  }

  /**
   * `process` for market data, most of the bus's events: the same steps in the same order, without those
   * that only account, order and control events take (enriching a fill, the ledgers, the executor, the
   * reconciler and the follow-ups of a lost position, a kill switch or a connect pass market data by).
   * The risk engine still sees it (a mark moves the day's PnL and the protections), metrics count it.
   */
  private processMarket(event: MarketEvent): void {
    const arrival = this.arrivals.size === 0 ? undefined : this.arrivals.get(event);
    if (arrival !== undefined) this.arrivals.delete(event);
    if (!this.cache.apply(event)) return;
    const killSwitch = this.risk.onEvent(event);
    const protections = this.risk.protectionChanges(event);
    this.metrics.count(event, this.ownerOfOrder);
    this.strategies.dispatchMarket(event, arrival?.arrivedAt, arrival?.ingestedAt);
    this.bus.next(event);
    this.afterRisk(killSwitch, protections);
  }

  /** What the risk engine said of an event, once the event is on the bus: its kill switch, then each protection change (a tripped one applied). */
  private afterRisk(killSwitch: KillSwitchChanged | undefined, protections: readonly ProtectionChanged[]): void {
    if (killSwitch !== undefined) this.ingest(killSwitch);
    // Indexed: runs for every event, and a for-of allocated an array iterator even for no change.
    for (let i = 0; i < protections.length; i++) {
      const change = protections[i]!;
      this.ingest(change);
      if (change.tripped) this.applyProtection(change);
    }
  }

  /** Fills from the stream may lack the client order id: take it from the order the cache knows. */
  private enrich(event: BusEvent): BusEvent {
    if (event.type !== 'account.fill' || event.fill.clientOrderId !== '') return event;
    const clientOrderId = this.cache.clientOrderIdOf(event.fill.orderId);
    return clientOrderId === undefined ? event : { ...event, fill: { ...event.fill, clientOrderId } };
  }

  /** Strategy intents: through the risk engine (the only road), then the executor. */
  private handleIntent(strategyId: string, intent: Intent, trigger?: Trigger): void {
    const emittedAt = trigger === undefined ? 0 : this.stopwatch.now();
    const now = this.options.time.clock.now();
    const closing = intent.type === 'cancel' || intent.type === 'cancel-all' || intent.type === 'cancel-algo';
    if ((this.state !== 'running' && this.state !== 'stopping') || (this.resyncing && !closing)) {
      this.ingest({ type: 'intent.denied', time: now, strategyId, intent, denial: { code: 'NOT_READY', message: `the daemon is ${this.resyncing ? 'resyncing with the exchange' : this.state}` } });
      return;
    }
    const checked = this.checkIntent(strategyId, intent);
    if (!checked.ok) {
      this.ingest({ type: 'intent.denied', time: now, strategyId, intent, denial: checked.error });
      return;
    }
    const approved = trigger === undefined ? undefined : approvedTrigger(trigger, emittedAt, this.stopwatch.now());
    this.metrics.approved(strategyId);
    const key = intent.type === 'place' || intent.type === 'plan' || intent.type === 'tpsl' ? intent.key : undefined;
    const commands = checked.value;
    // `execute`, not `submit`: its outcome is not read here, and a `then` to drop it would be one more promise per command.
    for (let i = 0; i < commands.length; i++) this.executor.execute(strategyId, commands[i]!, key, approved).catch(this.submissionFailed(strategyId));
  }

  /** The log of a strategy's failed submission: one function per strategy, not a closure per command. */
  private submissionFailed(strategyId: string): (error: unknown) => void {
    let logFailure = this.submissionFailures.get(strategyId);
    if (logFailure === undefined) {
      logFailure = (error: unknown) => this.log.error({ err: error, strategy: strategyId }, 'submission failed');
      this.submissionFailures.set(strategyId, logFailure);
    }
    return logFailure;
  }

  /** The risk engine's answer; a journal write failing meanwhile (an unkeyed id draws on the journal's sequence) denies. */
  private checkIntent(strategyId: string, intent: Intent): ReturnType<RiskEngine['check']> {
    try {
      return this.risk.check(strategyId, intent);
    } catch (error: unknown) {
      if (!isStorageFailure(error)) throw error;
      const failure = this.executor.journalHealth.failed(error);
      return err({ code: 'JOURNAL_UNAVAILABLE', message: failure.message });
    }
  }

  /**
   * Brings the cache and the journal in line with the exchange (start-up, every reconnect, the periodic
   * job). Stream account events arriving meanwhile are held and applied afterwards, ordered by time.
   * Runs are serialized; requests made while one runs coalesce into one more run.
   */
  reconcile(epoch: number): Promise<Result<ReconcileReport, ExchangeFailure>> {
    if (this.reconcileQueued) return this.reconcileChain as Promise<Result<ReconcileReport, ExchangeFailure>>;
    this.reconcileQueued = true;
    const run = this.reconcileChain.then(async () => {
      this.reconcileQueued = false;
      this.resyncing = true;
      const now = this.options.time.clock.now();
      let result: Result<ReconcileReport, ExchangeFailure>;
      try {
        result = await this.reconciler.reconcile(epoch);
      } catch (error: unknown) {
        // A journal that cannot be read or written (disk full, a damaged page) fails the run, loudly, instead of throwing out of it.
        if (!isStorageFailure(error)) throw error;
        result = err(this.executor.journalHealth.failed(error));
      } finally {
        this.resyncing = false;
        const held = this.heldDuringResync.splice(0);
        for (const event of held) this.ingest(event);
      }
      this.lastReconcile = result.ok ? { time: now, ok: true, report: result.value } : { time: now, ok: false, error: result.error.message };
      this.metrics.reconciliations.inc({ outcome: result.ok ? 'ok' : 'failed' });
      if (result.ok) {
        this.reconcileFailures = 0;
        this.reconcileRetry?.unsubscribe();
        this.reconcileRetry = undefined;
      } else this.retryReconcile(epoch, result.error);
      return result;
    });
    this.reconcileChain = run.catch(() => undefined);
    return run;
  }

  /** Schedules another run after a failed one: 250 ms, doubling up to 15 s, while the kernel runs. */
  private retryReconcile(epoch: number, failure: ExchangeFailure): void {
    if (this.state !== 'running') return; // start-up reports its own failure
    if (this.reconcileRetry !== undefined) {
      this.log.warn({ failure, epoch }, 'reconciliation failed; a retry is already scheduled');
      return;
    }
    const delayMs = Math.min(RECONCILE_RETRY_MAX_MS, RECONCILE_RETRY_FIRST_MS * 2 ** this.reconcileFailures);
    this.reconcileFailures += 1;
    this.log.warn({ failure, epoch, retryInMs: delayMs }, 'reconciliation failed; retrying');
    this.reconcileRetry = this.options.time.scheduler.schedule(() => {
      this.reconcileRetry = undefined;
      if (this.state === 'running') void this.reconcile(epoch);
    }, delayMs);
  }

  /** Loads exchangeInfo; status changes of known symbols become events. */
  async refreshInstruments(): Promise<Result<void, ExchangeFailure>> {
    const loaded = await this.options.port.loadInstruments();
    if (!loaded.ok) return loaded;
    const now = this.options.time.clock.now();
    const changes = instrumentChanges(this.cache, loaded.value, now);
    this.ingest({ type: 'instruments.loaded', time: now, instruments: loaded.value });
    for (const change of changes) this.ingest(change);
    return ok(undefined);
  }

  /** Kill switch: cancel every open order of the traded symbols (positions stay; closing is still allowed). */
  private async cancelEverything(reason: string): Promise<void> {
    this.log.warn({ reason }, 'kill switch engaged: cancelling all open orders');
    const symbols = new Set(this.cache.openOrders().map((o) => o.symbol));
    for (const symbol of symbols) await this.executor.submit('risk', { type: 'cancel-all', symbol });
    await this.cancelPlans('risk');
  }

  /** A protection tripped: its action (cancels, closing orders) through the executor and the risk engine. */
  private applyProtection(change: ProtectionChanged): void {
    this.log.warn({ protection: change.protection, scope: change.scopeKey, action: change.action, reason: change.reason }, 'protection tripped');
    applyProtection(change, {
      cache: this.cache,
      figures: this.risk.strategyFigures,
      strategyIds: this.options.strategies.map((s) => s.id),
      ownerOf: (clientOrderId) => this.executor.ownerOf(clientOrderId),
      submit: (owner, command) => this.executor.submit(owner, command),
      intent: (strategyId, intent) => this.handleIntent(strategyId, intent),
      clientOrderId: (owner) => this.executor.clientOrderId(owner, undefined),
    }).catch((error: unknown) => this.log.error({ err: error, protection: change.protection }, 'protection action failed'));
  }

  /** Opening plan orders could open positions with nobody watching; closing ones and TP/SL protect positions and stay. */
  private async cancelPlans(by: string): Promise<void> {
    for (const algo of this.cache.openAlgoOrders()) {
      if (algo.kind === 'PLAN' && isOpening(algo.side, algo.positionSide)) {
        await this.executor.submit(by, { type: 'cancel-algo', symbol: algo.symbol, clientOrderId: algo.clientOrderId });
      }
    }
  }

  /** A strategy lost its position side without an own fill: the orders it left to protect or close it go. */
  private async cancelOrphanedProtection(lost: PositionLost): Promise<void> {
    if (lost.remaining.gt(0)) return;
    const owns = (clientOrderId: string): boolean => this.executor.ownerOf(clientOrderId) === lost.strategyId;
    for (const command of orphanedProtection(this.cache, owns, lost.symbol, lost.positionSide)) {
      await this.executor.submit(lost.strategyId, command);
    }
  }

  /**
   * Operator (control plane) claim: what the external ledger holds on a symbol side (or `qty` of it)
   * becomes the strategy's. The claim is journaled with the ledgers and published on the bus.
   */
  claim(strategyId: string, symbol: string, positionSide: PositionSide, qty?: Decimal): Result<PositionClaimed, ClaimRefused> {
    const claimed = this.ledgers.claim(strategyId, symbol, positionSide, qty, 'operator');
    if (claimed.ok) this.ingest(claimed.value);
    return claimed;
  }

  /** Daily job: a new PnL day for the kill switch. */
  startNewDay(): void {
    this.risk.startNewDay();
    this.publishKillSwitch();
  }

  /** Operator halt: the kill switch without a loss. */
  halt(reason: string): void {
    this.risk.engage(reason);
    this.publishKillSwitch();
  }

  /**
   * Operator resume: releases a halt; a daily-loss halt only with `override` (the operator's reason),
   * else the refusal comes back and the switch stays engaged.
   */
  resume(override?: { readonly reason: string }): Result<Resumed, ResumeRefused> {
    const resumed = this.risk.resumeTrading(override);
    if (resumed.ok) this.publishKillSwitch();
    for (const change of this.risk.releaseProtections('resumed by hand')) this.ingest(change);
    return resumed;
  }

  private publishKillSwitch(): void {
    const state = this.risk.killSwitch;
    this.ingest({ type: 'risk.killSwitch', time: this.options.time.clock.now(), engaged: state.engaged, reason: state.reason, dayPnl: this.risk.dayPnl() });
  }

  private startTicks(): void {
    const every = this.options.tickMs ?? 1000;
    if (every <= 0) return;
    const { scheduler, clock } = this.options.time;
    const fire = (): void => {
      if (this.state !== 'running') return;
      this.ingest({ type: 'timer', time: clock.now(), name: 'tick' });
      this.tick = scheduler.schedule(fire, every);
    };
    this.tick = scheduler.schedule(fire, every);
  }

  /** Stops the strategies (their clean-up intents still run), optionally cancels every open order, waits for the executor. */
  async stop(options: { readonly cancelOpenOrders: boolean }): Promise<void> {
    if (this.state === 'stopped' || this.state === 'stopping') return;
    this.state = 'stopping';
    this.tick?.unsubscribe();
    this.reconcileRetry?.unsubscribe();
    this.reconcileRetry = undefined;
    await this.strategies.stopAll();
    if (options.cancelOpenOrders) {
      for (const symbol of new Set(this.cache.openOrders().map((o) => o.symbol))) await this.executor.submit('shutdown', { type: 'cancel-all', symbol });
      await this.cancelPlans('shutdown');
    }
    await this.executor.flush();
    this.executor.close();
    this.state = 'stopped';
    this.bus.complete();
  }

  /** Everything the status endpoint and `stratd status` show. */
  status(): KernelStatus {
    return {
      state: this.state,
      resyncing: this.resyncing,
      killSwitch: { ...this.risk.killSwitch, dayPnl: this.risk.dayPnl().toFixed() },
      protections: this.risk.protectionStatus(),
      strategies: this.strategies.status(),
      openOrders: this.cache.openOrders().length,
      openAlgoOrders: this.cache.openAlgoOrders().length,
      positions: this.cache.positions().map((p) => ({ symbol: p.symbol, side: p.positionSide, qty: p.qty.toFixed(), avgPrice: p.avgPrice.toFixed(), unrealizedPnl: p.unrealizedPnl.toFixed() })),
      ledgers: ledgerStatus(this.ledgers.all()),
      lastReconcile: this.lastReconcile === undefined ? undefined : { time: this.lastReconcile.time, ok: this.lastReconcile.ok, ...(this.lastReconcile.error === undefined ? {} : { error: this.lastReconcile.error }) },
    };
  }
}

export interface KernelStatus {
  readonly state: KernelState;
  readonly resyncing: boolean;
  readonly killSwitch: {
    readonly engaged: boolean;
    readonly reason: string;
    readonly dayPnl: string;
    /** The daily loss limit holds it (a plain resume does not lift it). */
    readonly dailyLoss: boolean;
    readonly override: DailyLossOverride | undefined;
  };
  /** Every configured protection (the daily loss limit first) and its trips. */
  readonly protections: readonly ProtectionStatus[];
  readonly strategies: ReturnType<StrategyHost['status']>;
  readonly openOrders: number;
  readonly openAlgoOrders: number;
  readonly positions: ReadonlyArray<{ symbol: string; side: string; qty: string; avgPrice: string; unrealizedPnl: string }>;
  /** Each strategy's own holdings and PnL per symbol side, and the external ledger (what no strategy owns). */
  readonly ledgers: readonly LedgerStatusRow[];
  readonly lastReconcile: { readonly time: number; readonly ok: boolean; readonly error?: string } | undefined;
}

