import type { Clock } from '../../core/clock.js';
import { dec } from '../../core/decimal.js';
import type { Logger } from '../../core/logger.js';
import type { Result } from '../../core/result.js';
import { ok } from '../../core/result.js';
import type { Position } from '../../model/account.js';
import { positionKey } from '../../model/account.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { CacheView } from '../../model/cache-view.js';
import type { AccountSnapshot, ExchangeFailure, ExchangePort } from '../../model/exchange-port.js';
import type { JournalEntry, OrderJournal } from '../../model/journal.js';
import type { AlgoOrderSnapshot, Fill, OrderSnapshot } from '../../model/orders.js';
import { strategyOfClientOrderId } from './client-order-ids.js';
import { query } from './exchange-calls.js';
import type { Executor } from './executor.js';
import { isAwaitingAnswer } from './order-phase.js';
import { isPlacing, kindOf } from './order-tracker.js';
import { vanished } from './settlement.js';
import type { TriggeredOutcome, UnattributedOrder } from './triggered-orders.js';
import { TriggeredOrders } from './triggered-orders.js';

/** Owner of adopted orders that carry no strategy's tag. */
export const EXTERNAL_STRATEGY = 'external';
/** Strategy id under which the cancels of foreign orders are journaled. */
export const RECONCILER_STRATEGY = 'reconciler';

export type OrphanPolicy = 'adopt' | 'cancel';

export interface ReconcilerOptions {
  readonly port: ExchangePort;
  readonly executor: Executor;
  readonly journal: OrderJournal;
  /** The cache, for what it holds that the exchange may no longer have. */
  readonly cache: Pick<CacheView, 'positions' | 'openOrders' | 'openAlgoOrders'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly publish: (event: BusEvent) => void;
  /** Traded symbols: their categories are fetched, their fills looked up. Empty: every category. */
  readonly symbols: readonly string[];
  /** Configured strategy ids: an unknown order carrying one's tag is adopted by it. Default none. */
  readonly strategies?: readonly string[];
  /**
   * Open orders the journal does not know: adopt them (the tagged strategy's, else `external`) or cancel
   * them. TP/SL rows are always adopted: the exchange makes them from attached stops, and cancelling
   * one would strip a position of its protection.
   */
  readonly orphans: OrphanPolicy;
  /** Where missed fills are looked for on a symbol with no fill seen yet and no live journal entry. */
  readonly fillsSince?: number;
  /**
   * Fills booked to nobody yet (the ledgers' `external` fills that may still find an owner): the orders
   * they filled are looked up among the orders our plan and TP/SL rows created. Default none.
   */
  readonly unattributedFills?: () => readonly Fill[];
}

export interface ReconcileReport {
  readonly epoch: number;
  readonly openOrders: number;
  readonly openAlgoOrders: number;
  readonly positions: number;
  readonly balances: number;
  /** Journal entries whose outcome this run settled (accepted, done or rejected now). */
  readonly settled: number;
  /** Of those, submissions the exchange never had. */
  readonly rejected: number;
  /** Entries a query could not settle now (left for the executor's retries or the next run). */
  readonly unresolved: number;
  readonly adopted: number;
  readonly cancelled: number;
  /** Locally open orders that are no longer open on the exchange, published in their final state. */
  readonly finalStates: number;
  /** Positions the cache held that the exchange no longer has, published flat. */
  readonly flattened: number;
  readonly fills: number;
  /** Orders a plan or TP/SL row of ours created whose trigger event was lost: found in the rows' history or fetched by id, and attributed. */
  readonly triggered: number;
}

export interface ReconcileTotals {
  readonly runs: number;
  readonly failures: number;
  readonly adopted: number;
  readonly cancelled: number;
  readonly settled: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Reconciliation: ONE code path for start-up and after every stream reconnect. Fetches the account,
 * settles every unsettled journal entry by the open lists or a query, adopts or cancels orders the
 * journal does not know, republishes the exchange's state as 'rest' events (so the cache resyncs), closes
 * what is open only locally, replays missed fills, then announces `account.resynced`.
 */
export class Reconciler {
  private readonly lastFill = new Map<string, number>();
  private readonly log: Logger;
  private totalsSoFar: Mutable<ReconcileTotals> = { runs: 0, failures: 0, adopted: 0, cancelled: 0, settled: 0 };
  private readonly triggered: TriggeredOrders;

  constructor(private readonly options: ReconcilerOptions) {
    this.log = options.logger;
    this.triggered = new TriggeredOrders({
      port: options.port,
      executor: options.executor,
      clock: options.clock,
      logger: options.logger,
      publish: options.publish,
      strategies: options.strategies ?? [],
    });
  }

  /** Follows fills on the bus: the next run looks for missed ones after the newest seen. */
  onEvent(event: BusEvent): void {
    if (event.type !== 'account.fill') return;
    const seen = this.lastFill.get(event.fill.symbol);
    if (seen === undefined || event.fill.time > seen) this.lastFill.set(event.fill.symbol, event.fill.time);
  }

  totals(): ReconcileTotals {
    return { ...this.totalsSoFar };
  }

  async reconcile(epoch: number): Promise<Result<ReconcileReport, ExchangeFailure>> {
    const o = this.options;
    const unsettled = o.journal.unsettled();
    const fillsFrom = this.fillStarts(unsettled);
    const fetched = await o.port.fetchAccount(o.symbols);
    this.totalsSoFar.runs += 1;
    if (!fetched.ok) {
      this.totalsSoFar.failures += 1;
      this.log.warn({ epoch, failure: fetched.error }, 'reconciliation failed: account fetch');
      return fetched;
    }
    const snapshot = fetched.value;
    const report: Mutable<ReconcileReport> = {
      epoch,
      openOrders: snapshot.openOrders.length,
      openAlgoOrders: snapshot.openAlgoOrders.length,
      positions: snapshot.positions.length,
      balances: snapshot.balances.length,
      settled: 0,
      rejected: 0,
      unresolved: 0,
      adopted: 0,
      cancelled: 0,
      finalStates: 0,
      flattened: 0,
      fills: 0,
      triggered: 0,
    };
    const handled = await this.settleJournal(unsettled, snapshot, report);
    this.triggered.nextRun();
    // Before orphans are resolved: an open order one of our rows created is not an orphan.
    count(report, await this.triggered.link(this.unattributed(snapshot)));
    const cancelled = await this.resolveOrphans(snapshot, report);
    this.publishState(snapshot, cancelled, report);
    await this.closeLocallyOpen(snapshot, handled, report);
    await this.replayFills(fillsFrom, report);
    // Fills replayed just now may be of orders nobody here saw; then the orders linked but never seen.
    count(report, await this.triggered.link(this.unattributed(undefined)));
    count(report, await this.triggered.fetchLinked());
    o.publish({ type: 'account.resynced', time: this.now(), epoch, adopted: report.adopted, cancelled: report.cancelled, settled: report.settled });
    this.totalsSoFar.adopted += report.adopted;
    this.totalsSoFar.cancelled += report.cancelled;
    this.totalsSoFar.settled += report.settled;
    this.log.info({ ...report }, 'reconciled');
    return ok(report);
  }

  /**
   * Regular orders nobody here can attribute: snapshots the executor could not place, orders of fills
   * booked to nobody, and (with a snapshot) open orders unknown to the journal that carry no strategy's tag.
   */
  private unattributed(snapshot: AccountSnapshot | undefined): UnattributedOrder[] {
    const o = this.options;
    const out: UnattributedOrder[] = o.executor.strays().map((order) => ({ symbol: order.symbol, orderId: order.orderId }));
    for (const fill of o.unattributedFills?.() ?? []) {
      if (fill.clientOrderId === '' || o.executor.ownerOf(fill.clientOrderId) === undefined) out.push({ symbol: fill.symbol, orderId: fill.orderId });
    }
    for (const order of snapshot?.openOrders ?? []) {
      if (o.executor.ownerOf(order.clientOrderId) !== undefined || strategyOfClientOrderId(order.clientOrderId, o.strategies ?? []) !== undefined) continue;
      out.push({ symbol: order.symbol, orderId: order.orderId });
    }
    return out.filter((order) => this.covers(order.symbol));
  }

  /** Journal entries not yet settled: by the fresh open lists, else a query by client order id. Plan rows first, so the orders they created find their owner. */
  private async settleJournal(unsettled: readonly JournalEntry[], snapshot: AccountSnapshot, report: Mutable<ReconcileReport>): Promise<Set<string>> {
    const openOrders = byClientId(snapshot.openOrders);
    const openAlgos = byClientId(snapshot.openAlgoOrders);
    const ordered = [...unsettled].sort((a, b) => rank(a) - rank(b));
    const handled = new Set<string>();
    for (const entry of ordered) {
      handled.add(entry.id);
      let known: { kind: 'order'; order: OrderSnapshot } | { kind: 'algo'; order: AlgoOrderSnapshot } | undefined;
      if (isPlacing(entry.command)) {
        const order = openOrders.get(entry.id);
        const algo = openAlgos.get(entry.id);
        if (kindOf(entry.command) === 'order' && order !== undefined) known = { kind: 'order', order };
        if (kindOf(entry.command) === 'algo' && algo !== undefined) known = { kind: 'algo', order: algo };
      }
      const result = await this.options.executor.settleNow(entry.id, known);
      if (result === 'unresolved' || result === 'busy' || isAwaitingAnswer(result)) report.unresolved += 1;
      else if (result !== entry.state) {
        report.settled += 1;
        if (result === 'rejected') report.rejected += 1;
      }
    }
    return handled;
  }

  /** Open orders nobody here knows: adopted, or cancelled (their ids are answered). */
  private async resolveOrphans(snapshot: AccountSnapshot, report: Mutable<ReconcileReport>): Promise<Set<string>> {
    const o = this.options;
    const cancelled = new Set<string>();
    const time = this.now();
    const orphans: Array<OrderSnapshot | AlgoOrderSnapshot> = [];
    // Replayed to the executor first: that links orders our plan rows created and revives late ones.
    for (const order of snapshot.openOrders) {
      o.executor.onEvent({ type: 'account.order', source: 'rest', time, order });
      if (o.executor.tracked(order.clientOrderId) === undefined) orphans.push(order);
    }
    for (const order of snapshot.openAlgoOrders) {
      o.executor.onEvent({ type: 'account.algo', source: 'rest', time, order });
      if (o.executor.tracked(order.clientOrderId) === undefined) orphans.push(order);
    }
    for (const order of orphans) {
      const isTpSl = 'kind' in order && order.kind !== 'PLAN';
      if (o.orphans === 'adopt' || isTpSl) {
        const owner = strategyOfClientOrderId(order.clientOrderId, o.strategies ?? []) ?? EXTERNAL_STRATEGY;
        o.executor.adopt(owner, order);
        report.adopted += 1;
        this.log.info({ clientOrderId: order.clientOrderId, symbol: order.symbol, owner }, 'adopted an order the journal did not know');
        continue;
      }
      const command = 'kind' in order
        ? ({ type: 'cancel-algo', symbol: order.symbol, clientOrderId: order.clientOrderId } as const)
        : ({ type: 'cancel-order', symbol: order.symbol, clientOrderId: order.clientOrderId } as const);
      const outcome = await o.executor.execute(RECONCILER_STRATEGY, command);
      cancelled.add(order.clientOrderId);
      if (outcome === 'done') report.cancelled += 1;
      this.log.info({ clientOrderId: order.clientOrderId, symbol: order.symbol, outcome }, 'cancelled an order the journal did not know');
    }
    return cancelled;
  }

  /** The fetched state as 'rest' events: the cache resyncs from these. */
  private publishState(snapshot: AccountSnapshot, cancelled: ReadonlySet<string>, report: Mutable<ReconcileReport>): void {
    const { publish } = this.options;
    const time = this.now();
    for (const order of snapshot.openOrders) if (!cancelled.has(order.clientOrderId)) publish({ type: 'account.order', source: 'rest', time, order });
    for (const order of snapshot.openAlgoOrders) if (!cancelled.has(order.clientOrderId)) publish({ type: 'account.algo', source: 'rest', time, order });
    const held = new Set<string>();
    for (const position of snapshot.positions) {
      held.add(positionKey(position.symbol, position.positionSide));
      publish({ type: 'account.position', source: 'rest', time, position });
    }
    for (const position of this.options.cache.positions()) {
      if (!position.qty.gt(0) || held.has(positionKey(position.symbol, position.positionSide)) || !this.covers(position.symbol)) continue;
      publish({ type: 'account.position', source: 'rest', time, position: flat(position, snapshot.fetchedAt) });
      report.flattened += 1;
    }
    for (const balance of snapshot.balances) publish({ type: 'account.balance', source: 'rest', time, balance });
    // The stream pushes no funding: the day's payments come with each reconciliation (the cache drops repeats).
    for (const funding of snapshot.funding ?? []) publish({ type: 'account.funding', source: 'rest', time, funding });
  }

  /** Orders the cache holds open that the exchange's open lists lack: their final state, by query. */
  private async closeLocallyOpen(snapshot: AccountSnapshot, handled: ReadonlySet<string>, report: Mutable<ReconcileReport>): Promise<void> {
    const o = this.options;
    const openOrders = byClientId(snapshot.openOrders);
    const openAlgos = byClientId(snapshot.openAlgoOrders);
    const stale: Array<{ readonly kind: 'order'; readonly order: OrderSnapshot } | { readonly kind: 'algo'; readonly order: AlgoOrderSnapshot }> = [];
    for (const order of o.cache.openOrders()) if (!openOrders.has(order.clientOrderId) && !handled.has(order.clientOrderId) && this.covers(order.symbol)) stale.push({ kind: 'order', order });
    for (const order of o.cache.openAlgoOrders()) if (!openAlgos.has(order.clientOrderId) && !handled.has(order.clientOrderId) && this.covers(order.symbol)) stale.push({ kind: 'algo', order });
    for (const item of stale) {
      const result = await query(o.port, item.kind, item.order.symbol, item.order.clientOrderId);
      if (!result.ok) {
        report.unresolved += 1;
        continue;
      }
      const time = this.now();
      const reply = result.value;
      if (reply.kind === 'order') o.publish({ type: 'account.order', source: 'rest', time, order: reply.order });
      else if (reply.kind === 'algo') o.publish({ type: 'account.algo', source: 'rest', time, order: reply.order });
      else if (item.kind === 'order') o.publish({ type: 'account.order', source: 'rest', time, order: vanished(item.order) });
      else o.publish({ type: 'account.algo', source: 'rest', time, order: vanished(item.order) });
      report.finalStates += 1;
    }
  }

  /** Fills since the newest one seen per symbol (the cache dedupes by trade id, so overlap is harmless). */
  private async replayFills(fillsFrom: ReadonlyMap<string, number>, report: Mutable<ReconcileReport>): Promise<void> {
    const o = this.options;
    for (const [symbol, from] of fillsFrom) {
      const result = await o.port.fetchFills(symbol, from);
      if (!result.ok) {
        this.log.warn({ symbol, failure: result.error }, 'missed fills not fetched');
        report.unresolved += 1;
        continue;
      }
      for (const fill of result.value) {
        o.publish({ type: 'account.fill', source: 'rest', time: this.now(), fill });
        this.onEvent({ type: 'account.fill', source: 'rest', time: fill.time, fill });
        report.fills += 1;
      }
    }
  }

  /** Per traded symbol: after the newest fill seen, else from the oldest live journal entry there, else `fillsSince`. */
  private fillStarts(unsettled: readonly JournalEntry[]): Map<string, number> {
    const oldestLive = new Map<string, number>();
    for (const entry of unsettled) {
      const seen = oldestLive.get(entry.symbol);
      if (seen === undefined || entry.createdAt < seen) oldestLive.set(entry.symbol, entry.createdAt);
    }
    const symbols = new Set([...this.options.symbols, ...oldestLive.keys(), ...this.lastFill.keys()]);
    const out = new Map<string, number>();
    for (const symbol of symbols) {
      const from = this.lastFill.get(symbol) ?? minDefined(oldestLive.get(symbol), this.options.fillsSince);
      if (from !== undefined) out.set(symbol, from);
    }
    return out;
  }

  private covers(symbol: string): boolean {
    return this.options.symbols.length === 0 || this.options.symbols.includes(symbol);
  }

  private now(): number {
    return this.options.clock.now();
  }
}

function count(report: Mutable<ReconcileReport>, outcome: TriggeredOutcome): void {
  report.triggered += outcome.attributed;
  report.unresolved += outcome.unresolved;
}

function byClientId<T extends { readonly clientOrderId: string }>(rows: readonly T[]): Map<string, T> {
  return new Map(rows.map((row) => [row.clientOrderId, row]));
}

/** Plan rows settle before regular orders, placements before other commands. */
function rank(entry: JournalEntry): number {
  if (entry.command.type === 'place-algo') return 0;
  return isPlacing(entry.command) ? 1 : 2;
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/** A position the exchange no longer has: the same side, flat. */
function flat(position: Position, time: number): Position {
  const zero = dec(0);
  return { ...position, qty: zero, unrealizedPnl: zero, margin: zero, updateTime: Math.max(position.updateTime, time) };
}
