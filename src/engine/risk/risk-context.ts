import type { Decimal } from '../../core/decimal.js';
import type { CacheView } from '../../model/cache-view.js';
import type { PositionSide } from '../../model/instrument.js';
import type { ExchangeCommand } from '../../model/commands.js';
import type { GlobalRiskLimits, RiskLimits } from '../../model/risk-limits.js';
import { isOpenAlgoStatus, isOpenStatus } from '../../model/orders.js';
import { openOrderCount } from './exposure.js';
import type { KillSwitchState } from './kill-switch.js';
import type { OrderRateWindow } from './order-rate.js';
import type { Entry } from './protections/protection.js';

/** A strategy's risk budget: the symbols it may trade and its own limits. */
export interface StrategyRisk {
  readonly symbols: readonly string[];
  readonly limits: RiskLimits;
}

/**
 * The executor's records of the strategies' orders, as the risk engine reads them. The Executor is one:
 * passed as itself (its methods, the same functions in every run), not as closures a wiring makes per run,
 * whose hot call sites a sweep's next combination would deoptimize ("wrong call target").
 */
export interface OrderRecords {
  /** Client order ids of the strategy's open regular and plan/TP-SL orders, each once. */
  openOrdersOf(strategyId: string): readonly string[];
  /** `openOrdersOf` of each of these strategies, joined in their order: one list, not one per strategy. */
  openOrdersOfAll(strategyIds: readonly string[]): readonly string[];
  /** At least as many as the ids of every strategy's `openOrdersOf` together (a bound made without listing them). */
  liveCount(): number;
  /** Whether an order is in `openOrdersOf(strategyId)`, by one lookup. */
  ownsOpenOrder(strategyId: string, clientOrderId: string): boolean;
  /** The deterministic client order id for a strategy and intent key (a fresh one without key). */
  clientOrderId(strategyId: string, key: string | undefined): string;
  /** The command that placed an order still on its way (not in the cache yet); undefined when unknown. */
  submittedCommand(clientOrderId: string): ExchangeCommand | undefined;
  /** The strategy owning an order: fills and exits are attributed by it for the protections. */
  ownerOf(clientOrderId: string): string | undefined;
  /** Why the order journal cannot be written (opening orders wait), or undefined. */
  readonly journalHealth: { readonly unavailable: string | undefined };
}

/**
 * The strategies' own ledger holdings, read through a method (the kernel passes one object of a class:
 * the same function in every backtest a sweep runs, not a closure each).
 */
export interface OwnHoldings {
  /**
   * The strategy's own ledger holding of a symbol side: closing orders close at most that. Undefined for
   * a strategy that acts on the whole account (a guard): the account's.
   */
  heldBy(strategyId: string, symbol: string, positionSide: PositionSide): Decimal | undefined;
}

/** A strategy's side of its checks: the same at every check (the moment's state is read through it). */
export interface RiskContextParts {
  readonly strategyId: string;
  readonly strategy: StrategyRisk;
  readonly cache: CacheView;
  readonly global: GlobalRiskLimits;
  readonly halted: (strategyId: string) => boolean;
  readonly killSwitch: () => KillSwitchState;
  /** Whether the kill switch holds (without building its state). */
  readonly killSwitchEngaged: () => boolean;
  readonly strategyRate: OrderRateWindow;
  readonly globalRate: OrderRateWindow;
  readonly strategyIds: readonly string[];
  readonly orders: OrderRecords;
  /** The strategies' own ledger holdings (absent: every strategy closes against the account's). */
  readonly holdings?: OwnHoldings;
  /** The protections' view of the strategy's opening orders: a covering trip, or a cap the entry would break. */
  readonly protections?: ProtectionGate;
}

/** What the protections answer about one strategy's opening orders (a refusal's message, or undefined). */
export interface ProtectionGate {
  /** Whether any protection is configured (else `tripped` and `admit` answer undefined always). */
  readonly configured: boolean;
  tripped(): string | undefined;
  admit(entry: Entry): string | undefined;
}

/**
 * A symbol side as a closing order reads it: the account's position and the strategy's own ledger
 * holding (undefined for a strategy that acts on the whole account, or when the strategies keep no ledgers).
 */
export interface Holdings {
  readonly account: Decimal | undefined;
  readonly own: Decimal | undefined;
}

/** A set of limits an order is checked against: the strategy's own or the global ones. */
export interface LimitScope {
  readonly limits: RiskLimits;
  readonly label: string;
  readonly strategy: boolean;
}

/**
 * What one check sees: the strategy, the read model and the engine's state at this moment. Made once
 * per strategy; `begin` starts each check (its time, and none of the last check's order sets).
 */
export class RiskContext {
  readonly strategyId: string;
  readonly strategy: StrategyRisk;
  readonly cache: CacheView;
  readonly global: GlobalRiskLimits;
  /** How the strategy's limits name themselves in denial messages. */
  readonly label: string;
  /** The strategy's limits, then the global ones. */
  readonly scopes: readonly LimitScope[];
  /** Whether any protection is configured (the entry's notional for their caps is computed only then). */
  readonly protectionsConfigured: boolean;
  private time = 0;
  private ownedList: readonly string[] | undefined;
  private owned: ReadonlySet<string> | undefined;

  constructor(private readonly parts: RiskContextParts) {
    this.strategyId = parts.strategyId;
    this.strategy = parts.strategy;
    this.cache = parts.cache;
    this.global = parts.global;
    this.label = `strategy ${parts.strategyId}`;
    this.scopes = [
      { limits: parts.strategy.limits, label: this.label, strategy: true },
      { limits: parts.global, label: 'global', strategy: false },
    ];
    this.protectionsConfigured = parts.protections?.configured ?? false;
  }

  /** Starts a check at `now`. */
  begin(now: number): this {
    this.time = now;
    this.ownedList = undefined;
    this.owned = undefined;
    return this;
  }

  get now(): number {
    return this.time;
  }

  get halted(): boolean {
    return this.parts.halted(this.strategyId);
  }

  get journalUnavailable(): string | undefined {
    return this.parts.orders.journalHealth.unavailable;
  }

  get killSwitch(): KillSwitchState {
    return this.parts.killSwitch();
  }

  get killSwitchEngaged(): boolean {
    return this.parts.killSwitchEngaged();
  }

  /** Client order ids of the strategy's open regular and plan/TP-SL orders, each once, oldest first. */
  ownedIdList(): readonly string[] {
    this.ownedList ??= this.parts.orders.openOrdersOf(this.strategyId);
    return this.ownedList;
  }

  /** The same ids as a set, for lookups. */
  ownedIds(): ReadonlySet<string> {
    this.owned ??= new Set(this.ownedIdList());
    return this.owned;
  }

  /** Whether the order is one of the strategy's open ones: one lookup, not the set of all of them. */
  owns(clientOrderId: string): boolean {
    if (this.owned !== undefined) return this.owned.has(clientOrderId);
    return this.parts.orders.ownsOpenOrder(this.strategyId, clientOrderId);
  }

  /** How many open orders the whole account has: the cache's and every strategy's still on their way. */
  openOrderCount(): number {
    return openOrderCount(this.cache, this.strategiesOpenIds());
  }

  /**
   * `openOrderCount()`, or any number below `limit` when the count is: first bounded by the cache's open
   * regular and plan/TP-SL orders plus every live submission (each id counted once at most in the exact
   * count), which lists no strategy's ids and looks up none of them.
   */
  openOrderCountUnder(limit: number): number {
    const bound = this.cache.openOrderCount() + this.cache.openAlgoOrderCount() + this.parts.orders.liveCount();
    return bound < limit ? bound : this.openOrderCount();
  }

  /** Every strategy's live order ids, strategy by strategy, each once: those on their way without a set of all. */
  strategiesOpenIds(): readonly string[] {
    return this.parts.orders.openOrdersOfAll(this.parts.strategyIds);
  }

  /** The account's position and the strategy's own ledger holding of a symbol side, each read once. */
  holdings(symbol: string, positionSide: PositionSide): Holdings {
    return { account: this.cache.position(symbol, positionSide)?.qty, own: this.parts.holdings?.heldBy(this.strategyId, symbol, positionSide) };
  }

  /** Whether a client order id is in use by a live order. */
  isLive(clientOrderId: string): boolean {
    if (this.owns(clientOrderId)) return true;
    const order = this.cache.order(clientOrderId);
    if (order !== undefined && isOpenStatus(order.status)) return true;
    const algo = this.cache.algoOrder(clientOrderId);
    return algo !== undefined && isOpenAlgoStatus(algo.status);
  }

  /** The placing command of an order on its way (sent, not acknowledged yet), when the executor knows it. */
  submitted(clientOrderId: string): ExchangeCommand | undefined {
    return this.parts.orders.submittedCommand(clientOrderId);
  }

  /** A protection's refusal of an opening order: a trip covering the strategy, or (with `entry`) a cap. */
  protectionRefusal(entry?: Entry): string | undefined {
    const gate = this.parts.protections;
    if (gate === undefined || !this.protectionsConfigured) return undefined;
    return entry === undefined ? gate.tripped() : gate.admit(entry);
  }

  clientOrderId(key: string | undefined): string {
    return this.parts.orders.clientOrderId(this.strategyId, key);
  }

  /** Placing/modifying commands of the strategy approved in the last minute. */
  recentStrategyCommands(): number {
    return this.parts.strategyRate.count(this.now);
  }

  /** Placing/modifying commands of every strategy approved in the last minute. */
  recentGlobalCommands(): number {
    return this.parts.globalRate.count(this.now);
  }

  /** Counts an approved placing or modifying command in the rate windows. */
  approved(): void {
    this.parts.strategyRate.record(this.now);
    this.parts.globalRate.record(this.now);
  }
}
