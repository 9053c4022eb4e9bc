import type { Clock } from '../../core/clock.js';
import type { Decimal } from '../../core/decimal.js';
import { assertNever, InvariantError } from '../../core/errors.js';
import type { Result } from '../../core/result.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { CacheView } from '../../model/cache-view.js';
import type { ExchangeCommand } from '../../model/commands.js';
import type { Denial, DenialCode } from '../../model/denials.js';
import type { Intent } from '../../model/intents.js';
import type { KeyValueStore } from '../../model/journal.js';
import type { KillSwitchChanged, ProtectionChanged } from '../../model/kernel-events.js';
import { GLOBAL_SCOPE } from '../../model/protections.js';
import type { GlobalRiskLimits } from '../../model/risk-limits.js';
import { DayPnl } from './day-pnl.js';
import type { Checked } from './denial.js';
import { DenialCounters } from './denial-counters.js';
import { checkCancel, checkCancelAll, checkModify, checkModifyAlgo } from './existing-orders.js';
import type { KillSwitchState, ResumeRefused, Resumed } from './kill-switch.js';
import { KillSwitch } from './kill-switch.js';
import { checkNewOrder } from './new-orders.js';
import { OrderRateWindow } from './order-rate.js';
import type { ProtectionStatus } from './protections/protections.js';
import { Protections } from './protections/protections.js';
import type { StrategyFigures } from './protections/strategy-figures.js';
import type { OrderRecords, OwnHoldings, StrategyRisk } from './risk-context.js';
import { RiskContext } from './risk-context.js';

export type { DailyLossOverride, KillSwitchState, ResumeRefused, Resumed } from './kill-switch.js';
export type { OrderRecords, OwnHoldings, StrategyRisk } from './risk-context.js';
export type { ProtectionStatus } from './protections/protections.js';

export interface RiskEngineOptions {
  readonly cache: CacheView;
  readonly clock: Clock;
  readonly global: GlobalRiskLimits;
  readonly strategies: ReadonlyMap<string, StrategyRisk>;
  /**
   * The executor's records: open orders and their owners, client order ids, placing commands the cache
   * does not show yet (their quantity reserves a position too), the journal's health.
   */
  readonly orders: OrderRecords;
  /** Where tripped protections are journaled (a restart keeps them tripped until their resume time). */
  readonly protectionStore?: KeyValueStore;
  /** The strategies' own ledger holdings (closing intents close at most that); absent: the account's. */
  readonly holdings?: OwnHoldings;
}

/**
 * The only road from intents to the exchange. `check` turns an intent into fully resolved, quantized
 * commands or a denial with a stable code. Closing orders and cancels are never held back by exposure
 * limits, rate limits, a halt or the kill switch: a user must always be able to get out.
 */
export class RiskEngine {
  private readonly cache: CacheView;
  private readonly clock: Clock;
  private readonly global: GlobalRiskLimits;
  private readonly strategies: ReadonlyMap<string, StrategyRisk>;
  private readonly orders: OrderRecords;
  private readonly holdings: OwnHoldings | undefined;
  private readonly kill = new KillSwitch();
  private readonly day: DayPnl;
  private readonly halted = new Set<string>();
  private readonly counters = new DenialCounters();
  private readonly globalRate = new OrderRateWindow();
  private readonly strategyRates = new Map<string, OrderRateWindow>();
  private readonly protections: Protections;
  /** Each strategy's context, made at its first check. */
  private readonly contexts = new Map<string, RiskContext>();
  private readonly strategyIds: readonly string[];

  constructor(options: RiskEngineOptions) {
    this.cache = options.cache;
    this.clock = options.clock;
    this.global = options.global;
    this.strategies = options.strategies;
    this.orders = options.orders;
    this.holdings = options.holdings;
    // An array, not an iterable over the map's keys: a closure made per engine, whose call the next backtest's
    // engine would deoptimize ("wrong call target", and "weak objects" once the last engine is collected).
    this.strategyIds = [...options.strategies.keys()];
    this.day = new DayPnl(options.cache, options.clock.now());
    const { orders } = options;
    this.protections = new Protections({
      specs: options.global.protections ?? [],
      strategyIds: this.strategyIds,
      cache: options.cache,
      ownerOf: (clientOrderId) => orders.ownerOf(clientOrderId),
      ...(options.protectionStore === undefined ? {} : { store: options.protectionStore }),
    });
  }

  /** Approved commands (possibly none, e.g. cancel-all with nothing open), or why not. Unknown strategy ids are a bug. */
  check(strategyId: string, intent: Intent): Result<readonly ExchangeCommand[], Denial> {
    let ctx = this.contexts.get(strategyId);
    if (ctx === undefined) {
      ctx = this.context(strategyId);
      this.contexts.set(strategyId, ctx);
    }
    const result = this.evaluate(ctx.begin(this.clock.now()), intent);
    if (!result.ok) this.counters.record(strategyId, result.error.code);
    return result;
  }

  /** What `check` would answer, recording nothing (no denial counted, no order rate used): a dry run. */
  preview(strategyId: string, intent: Intent): Result<readonly ExchangeCommand[], Denial> {
    return this.evaluate(this.context(strategyId, true).begin(this.clock.now()), intent);
  }

  /** Follows fills, positions and mark prices for the day's PnL; answers a kill-switch change to publish. */
  onEvent(event: BusEvent): KillSwitchChanged | undefined {
    if (!this.day.onEvent(event)) return undefined;
    return this.kill.checkLoss(this.dailyLossLimit(), this.clock.now(), this.day);
  }

  /** The protections' trips and resumes after an event (the kernel publishes them and applies their actions). */
  protectionChanges(event: BusEvent): readonly ProtectionChanged[] {
    return this.protections.onEvent(event, this.clock.now());
  }

  /** Trips found in the journal at start (their actions ran before the restart). */
  restoredProtections(): readonly ProtectionChanged[] {
    return this.protections.restored();
  }

  /** Every configured protection and its trips; the daily loss limit first (the kill switch's hold). */
  protectionStatus(): readonly ProtectionStatus[] {
    const limit = this.dailyLossLimit();
    const kill = this.kill.state;
    const daily: ProtectionStatus[] =
      limit === undefined
        ? []
        : [
            {
              name: this.global.protections?.find((s) => s.kind === 'dailyLoss')?.name ?? 'dailyLoss',
              kind: 'dailyLoss',
              scope: 'global',
              action: 'pause',
              tripped: kill.dailyLoss ? [{ scopeKey: GLOBAL_SCOPE, reason: kill.reason, since: kill.since ?? this.clock.now() }] : [],
            },
          ];
    return [...daily, ...this.protections.status()];
  }

  /** Per-strategy positions and PnL as the protections see them. */
  get strategyFigures(): StrategyFigures {
    return this.protections.strategyFigures;
  }

  /** The daily loss limit: `dailyLossLimit`, or a `dailyLoss` protection's `limit`. */
  private dailyLossLimit(): Decimal | undefined {
    if (this.global.dailyLossLimit !== undefined) return this.global.dailyLossLimit;
    const spec = this.global.protections?.find((s) => s.kind === 'dailyLoss');
    return spec?.kind === 'dailyLoss' ? spec.limit : undefined;
  }

  get killSwitch(): KillSwitchState {
    return this.kill.state;
  }

  /** Today's PnL as the daily loss limit sees it. */
  dayPnl(): Decimal {
    return this.day.value();
  }

  /** Engages by hand; stays engaged across days until `resume`. Undefined when it already was engaged. */
  engage(reason: string): KillSwitchChanged | undefined {
    return this.kill.engage(reason, this.clock.now(), this.day.value());
  }

  /**
   * Manual resume: releases the operator's hold; a daily-loss hold only with `override` (the operator's
   * reason), else the refusal. The loss is still measured from the day's start.
   */
  resumeTrading(override?: { readonly reason: string }): Result<Resumed, ResumeRefused> {
    return this.kill.resume(this.clock.now(), this.day.value(), override);
  }

  /** The operator's resume of the protections: every trip ends now; answers the resumes to publish. */
  releaseProtections(reason: string): readonly ProtectionChanged[] {
    return this.protections.releaseAll(this.clock.now(), reason);
  }

  /** The daily job: today's PnL restarts at zero; a kill switch engaged by the daily loss is released. */
  startNewDay(): KillSwitchChanged | undefined {
    const now = this.clock.now();
    this.day.startDay(now);
    return this.kill.newDay(now, this.day.value());
  }

  /** Only closing orders and cancels of a halted strategy go through. */
  halt(strategyId: string): void {
    this.halted.add(strategyId);
  }

  resume(strategyId: string): void {
    this.halted.delete(strategyId);
  }

  isHalted(strategyId: string): boolean {
    return this.halted.has(strategyId);
  }

  /** Denials by code since start (a copy). */
  denials(): ReadonlyMap<DenialCode, number> {
    return this.counters.all();
  }

  denialsOf(strategyId: string): ReadonlyMap<DenialCode, number> {
    return this.counters.of(strategyId);
  }

  private context(strategyId: string, dryRun = false): RiskContext {
    const strategy = this.strategies.get(strategyId);
    if (strategy === undefined) throw new InvariantError('UNKNOWN_STRATEGY', `the risk engine has no budget for strategy ${strategyId}`);
    let strategyRate = this.strategyRates.get(strategyId);
    if (strategyRate === undefined) {
      strategyRate = new OrderRateWindow();
      this.strategyRates.set(strategyId, strategyRate);
    }
    return new RiskContext({
      strategyId,
      strategy,
      cache: this.cache,
      global: this.global,
      halted: (id) => this.halted.has(id),
      killSwitch: () => this.kill.state,
      killSwitchEngaged: () => this.kill.engaged,
      strategyRate: dryRun ? strategyRate.copy() : strategyRate,
      globalRate: dryRun ? this.globalRate.copy() : this.globalRate,
      strategyIds: this.strategyIds,
      orders: this.orders,
      protections: {
        configured: this.protections.configured,
        tripped: () => this.protections.gate(strategyId, this.clock.now()),
        admit: (entry) => this.protections.admit(strategyId, entry, this.clock.now()),
      },
      ...(this.holdings === undefined ? {} : { holdings: this.holdings }),
    });
  }

  private evaluate(ctx: RiskContext, intent: Intent): Checked<readonly ExchangeCommand[]> {
    switch (intent.type) {
      case 'place':
      case 'plan':
      case 'tpsl':
        return checkNewOrder(ctx, intent);
      case 'modify':
        return checkModify(ctx, intent);
      case 'modify-algo':
        return checkModifyAlgo(ctx, intent);
      case 'cancel':
      case 'cancel-algo':
        return checkCancel(ctx, intent.clientOrderId);
      case 'cancel-all':
        return checkCancelAll(ctx, intent);
      default:
        return assertNever(intent, 'intent');
    }
  }
}
