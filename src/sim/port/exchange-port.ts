import type { Observable } from 'rxjs';
import type { TimeSource } from '../../core/clock.js';
import { EventBus } from '../../core/event-bus.js';
import type { Result } from '../../core/result.js';
import { err, ok } from '../../core/result.js';
import type { Balance, FundingPayment, Position } from '../../model/account.js';
import type { AccountEvent } from '../../model/account-events.js';
import type {
  CancelAlgoCommand,
  CancelAllCommand,
  CancelOrderCommand,
  ModifyAlgoCommand,
  ModifyOrderCommand,
  PlaceAlgoCommand,
  PlaceOrderCommand,
} from '../../model/commands.js';
import type { AccountSnapshot, AlgoFamily, AlgoHistoryPage, ExchangeFailure, ExchangePort, PortResult } from '../../model/exchange-port.js';
import type { Category, Instrument } from '../../model/instrument.js';
import type { AlgoOrderSnapshot, Fill, OrderSnapshot } from '../../model/orders.js';
import type { SimVenue } from '../engine/sim-venue.js';
import type { AccountRef, SimResult } from '../engine/types.js';
import { applyUpdate } from '../routes/update/apply.js';
import type { LatencyModel } from './port-latency.js';
import { NO_LATENCY, runAfter } from './port-latency.js';
import { streamEventOf } from './account-events.js';
import { algoUpdateOf, orderUpdateOf, simPlaceOrder, simPlacePlan } from './commands.js';
import { failureOf, invalidRequest, UNKNOWN_ORDER_CODE } from './failures.js';
import { instrumentOf } from './instruments.js';
import { algoSnapshotOf, balanceOf, fillOf, fundingOf, orderSnapshotOf, orderSnapshotOfMoment, positionOf } from './snapshots.js';

export interface SimExchangePortOptions {
  /** The engine (a SimExchange, or anything speaking its SimVenue face). */
  readonly engine: SimVenue;
  /** The account the port trades for; the category (USDT-M or USDC-M) follows from each symbol. */
  readonly userId: string;
  readonly time: TimeSource;
  readonly latency?: LatencyModel;
  /**
   * Zero latency still takes a turn: a command reaches the engine, and its reply the caller, in a scheduled
   * action at the same instant (a network round trip: market data that arrived meanwhile is handled
   * first). Account events still follow the engine at once. Default: commands run at once.
   */
  readonly roundTrips?: boolean;
  /**
   * Bring the engine up to the clock before each command (`advanceTo(now)`, which pulls a feed's market
   * events due by then). Default true; a driver that advances the engine itself may turn it off.
   */
  readonly advanceEngine?: boolean;
}

const NO_FUNDING: readonly FundingPayment[] = [];

/** Per-list row cap: far above any real open-order limit (200 per symbol) or fill page. */
const LIST_LIMIT = 1_000_000;
const BATCH_MAX = 10;
/** How far back a fetched account lists funding payments: the trading day (UTC) they may belong to. */
const FUNDING_LOOKBACK_MS = 86_400_000;

/**
 * The ExchangePort over the simulated exchange's engine, in-process and in the caller's (virtual) time:
 * what backtests trade against. Commands and replies pass through an optional latency model on the
 * injected scheduler; `accountEvents$` is the account's user stream (source 'stream').
 */
export class SimExchangePort implements ExchangePort {
  private readonly engine: SimVenue;
  private readonly latency: LatencyModel;
  /**
   * The options the command path reads, copied: the caller's literal gets V8's boilerplate the second
   * time its line runs (a process's second backtest), which widened the recorded field types and
   * deoptimized every optimized reader of `options.x` ("code dependencies").
   */
  private readonly userId: string;
  private readonly time: TimeSource;
  private readonly roundTrips: boolean;
  private readonly advanceEngine: boolean;
  private readonly events = new EventBus<AccountEvent>();
  private readonly detach: () => void;
  private lastFundingId: bigint | undefined;
  readonly accountEvents$: Observable<AccountEvent> = this.events.observable;

  constructor(options: SimExchangePortOptions) {
    this.engine = options.engine;
    this.latency = options.latency ?? NO_LATENCY;
    this.userId = options.userId;
    this.time = options.time;
    this.roundTrips = options.roundTrips === true;
    this.advanceEngine = options.advanceEngine !== false;
    this.detach = this.engine.onAccountEvent((event) => {
      if (event.userId !== this.userId) return;
      // A funding settlement shows as a balance change; its flow (type 32) is the payment itself.
      const funding = event.type === 'balance' ? this.newFunding({ userId: event.userId, category: event.category }, event.time) : NO_FUNDING;
      const mapped = streamEventOf(event, this.engine);
      // At once without latency: no closure per account event (a backtest raises ~30,000).
      if (this.latency.ackLatencyMs > 0) this.time.scheduler.schedule(() => this.deliver(funding, mapped), this.latency.ackLatencyMs);
      else this.deliver(funding, mapped);
    });
  }

  /** An account event to the kernel, after the funding payments its balance change settled. */
  private deliver(funding: readonly FundingPayment[], mapped: AccountEvent): void {
    for (const payment of funding) this.events.next({ type: 'account.funding', source: 'stream', time: payment.time, funding: payment });
    this.events.next(mapped);
  }

  /** Stops listening to the engine and completes `accountEvents$`. */
  close(): void {
    this.detach();
    this.events.complete();
  }

  loadInstruments(): PortResult<readonly Instrument[]> {
    return this.call(() => ok(this.engine.instruments.map(instrumentOf)));
  }

  placeOrder(command: PlaceOrderCommand): PortResult<OrderSnapshot> {
    return this.call(() => this.placeNow(command));
  }

  placeOrders(commands: readonly PlaceOrderCommand[]): PortResult<ReadonlyArray<Result<OrderSnapshot, ExchangeFailure>>> {
    if (commands.length === 0 || commands.length > BATCH_MAX) return Promise.resolve(err(invalidRequest(`a batch holds 1 to ${BATCH_MAX} orders, not ${commands.length}`)));
    // v2 batch legs carry no TP/SL (document 000): refuse such a leg rather than drop its stops.
    return this.call(() => ok(commands.map((c) => (c.takeProfit !== undefined || c.stopLoss !== undefined ? err(invalidRequest('batch legs carry no TP/SL')) : this.placeNow(c)))));
  }

  modifyOrder(command: ModifyOrderCommand): PortResult<OrderSnapshot> {
    return this.call(() => {
      const ref = this.refOf(command.symbol);
      if (!ref.ok) return ref;
      const updated = this.mapped(applyUpdate(this.engine, ref.value, orderUpdateOf(command), 'v2'));
      if (!updated.ok) return updated;
      return updated.value.kind === 'order' ? ok(orderSnapshotOf(updated.value.view)) : err(invalidRequest(`${command.clientOrderId} is not a regular order`));
    });
  }

  cancelOrder(command: CancelOrderCommand): PortResult<OrderSnapshot> {
    return this.call(() => this.withRef(command.symbol, (ref) => this.mapped(this.engine.cancelOrderMoment(ref, { clientOrderId: command.clientOrderId })), (m) => orderSnapshotOfMoment(m, m.updateTime)));
  }

  cancelAll(command: CancelAllCommand): PortResult<void> {
    return this.call(() => this.withRef(command.symbol, (ref) => this.mapped(this.engine.cancelAllOrders(ref, [command.symbol])), () => undefined));
  }

  placeAlgo(command: PlaceAlgoCommand): PortResult<AlgoOrderSnapshot> {
    return this.call(() => this.withRef(command.symbol, (ref) => this.mapped(this.engine.placePlanOrder(ref, simPlacePlan(command))), (v) => algoSnapshotOf(v)));
  }

  modifyAlgo(command: ModifyAlgoCommand): PortResult<AlgoOrderSnapshot> {
    return this.call(() => {
      const ref = this.refOf(command.symbol);
      if (!ref.ok) return ref;
      const updated = this.mapped(applyUpdate(this.engine, ref.value, algoUpdateOf(command), 'v2'));
      if (!updated.ok) return updated;
      return updated.value.kind === 'algo' ? ok(algoSnapshotOf(updated.value.view)) : err(invalidRequest(`${command.clientOrderId} is not a plan or TP/SL order`));
    });
  }

  cancelAlgo(command: CancelAlgoCommand): PortResult<AlgoOrderSnapshot> {
    return this.call(() => this.withRef(command.symbol, (ref) => this.mapped(this.engine.cancelAlgoOrder(ref, { clientOrderId: command.clientOrderId })), (v) => algoSnapshotOf(v)));
  }

  queryOrder(symbol: string, clientOrderId: string): PortResult<OrderSnapshot | undefined> {
    return this.call(() => this.withRef(symbol, (ref) => this.found(this.engine.getOrder(ref, { clientOrderId })), (v) => (v === undefined ? undefined : orderSnapshotOf(v))));
  }

  queryAlgo(symbol: string, clientOrderId: string): PortResult<AlgoOrderSnapshot | undefined> {
    return this.call(() => this.withRef(symbol, (ref) => this.found(this.engine.getAlgoOrder(ref, { clientOrderId })), (v) => (v === undefined ? undefined : algoSnapshotOf(v))));
  }

  fetchAccount(symbols: readonly string[]): PortResult<AccountSnapshot> {
    return this.call(() => {
      const fetchedAt = this.time.clock.now();
      const categories = this.categoriesOf(symbols);
      if (!categories.ok) return categories;
      const openOrders: OrderSnapshot[] = [];
      const openAlgoOrders: AlgoOrderSnapshot[] = [];
      const positions: Position[] = [];
      const balances: Balance[] = [];
      const funding: FundingPayment[] = [];
      for (const category of categories.value) {
        const ref: AccountRef = { userId: this.userId, category };
        for (const view of this.engine.openOrders(ref, { limit: LIST_LIMIT })) openOrders.push(orderSnapshotOf(view));
        for (const stopCategory of ['STOP', 'STOP_PROFIT_LOSS'] as const) {
          for (const view of this.engine.openAlgoOrders(ref, { limit: LIST_LIMIT, stopCategory })) openAlgoOrders.push(algoSnapshotOf(view));
        }
        const updateTime = this.engine.now();
        for (const view of this.engine.positions(ref)) positions.push(positionOf(view, updateTime));
        balances.push(balanceOf(this.engine.futuresBalance(ref), updateTime));
        funding.push(...this.fundingOf(ref, updateTime - FUNDING_LOOKBACK_MS, updateTime));
      }
      return ok({ openOrders, openAlgoOrders, positions, balances, funding, fetchedAt });
    });
  }

  fetchFills(symbol: string, fromTime: number): PortResult<readonly Fill[]> {
    return this.call(() =>
      this.withRef(
        symbol,
        (ref) => ok(this.engine.userTrades(ref, { symbol, startTime: fromTime, limit: LIST_LIMIT })),
        // Newest first from the engine; the port answers oldest first.
        (views) => [...views].reverse().map((view) => fillOf(view)),
      ),
    );
  }

  fetchAlgoHistory(symbol: string, family: AlgoFamily, before?: string): PortResult<AlgoHistoryPage> {
    const stopCategory = family === 'plan' ? 'STOP' : 'STOP_PROFIT_LOSS';
    // One page holds every row: the engine's history is in memory.
    return this.call(() =>
      this.withRef(
        symbol,
        (ref) => ok(this.engine.historyAlgoOrders(ref, { symbol, stopCategory, limit: LIST_LIMIT, ...(before === undefined ? {} : { beforeOrderId: before }) })),
        (views) => ({ rows: views.map((v) => algoSnapshotOf(v)) }),
      ),
    );
  }

  queryOrderById(symbol: string, orderId: string): PortResult<OrderSnapshot | undefined> {
    return this.call(() => this.withRef(symbol, (ref) => this.found(this.engine.getOrder(ref, { orderId })), (v) => (v === undefined ? undefined : orderSnapshotOf(v))));
  }

  // ---------------------------------------------------------------- plumbing

  /** The account's funding payments (flow type 32) from `from` to `to`, oldest first. */
  private fundingOf(ref: AccountRef, from: number, to: number): readonly FundingPayment[] {
    const flows = this.engine.balanceFlows({ userId: ref.userId, accountType: 'FUTURES', category: ref.category, kind: 'FUNDING', startTime: from, endTime: to, limit: LIST_LIMIT });
    // Most balance events settle no funding: no arrays made for them.
    return flows.length === 0 ? NO_FUNDING : [...flows].reverse().map(fundingOf);
  }

  /** Funding payments settled at `time` not yet pushed (one balance event per payment, ids increase). */
  private newFunding(ref: AccountRef, time: number): readonly FundingPayment[] {
    const payments = this.fundingOf(ref, time, time);
    if (payments.length === 0) return NO_FUNDING;
    const fresh = payments.filter((p) => this.lastFundingId === undefined || BigInt(p.flowId) > this.lastFundingId);
    const last = fresh.at(-1);
    if (last !== undefined) this.lastFundingId = BigInt(last.flowId);
    return fresh;
  }

  private after(ms: number, work: () => void): void {
    if (this.roundTrips && ms <= 0) this.time.scheduler.schedule(work, 0);
    else runAfter(this.time.scheduler, ms, work);
  }

  /** Delivers `work` to the engine after the order latency and answers after the ack latency. */
  private call<T>(work: () => Result<T, ExchangeFailure>): PortResult<T> {
    const { clock } = this.time;
    return new Promise((resolve, reject) => {
      this.after(this.latency.orderLatencyMs, () => {
        let result: Result<T, ExchangeFailure>;
        try {
          if (this.advanceEngine) this.engine.advanceTo(clock.now());
          result = work();
        } catch (error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        this.after(this.latency.ackLatencyMs, () => resolve(result));
      });
    });
  }

  private placeNow(command: PlaceOrderCommand): Result<OrderSnapshot, ExchangeFailure> {
    return this.withRef(command.symbol, (ref) => this.mapped(this.engine.placeOrderMoment(ref, simPlaceOrder(command))), (m) => orderSnapshotOfMoment(m, m.updateTime));
  }

  private withRef<V, T>(symbol: string, run: (ref: AccountRef) => Result<V, ExchangeFailure>, map: (value: V) => T): Result<T, ExchangeFailure> {
    const ref = this.refOf(symbol);
    if (!ref.ok) return ref;
    const result = run(ref.value);
    return result.ok ? ok(map(result.value)) : result;
  }

  /** The account of the symbol's category; an unlisted symbol is the exchange's -1121. */
  private refOf(symbol: string): Result<AccountRef, ExchangeFailure> {
    const instrument = this.engine.instrument(symbol);
    if (instrument === undefined) return err({ kind: 'rejected', code: '-1121', message: `Invalid symbol: ${symbol}.`, retryable: false });
    return ok({ userId: this.userId, category: instrument.category });
  }

  private categoriesOf(symbols: readonly string[]): Result<readonly Category[], ExchangeFailure> {
    if (symbols.length === 0) return ok([...new Set(this.engine.instruments.map((i) => i.category))]);
    const out = new Set<Category>();
    for (const symbol of symbols) {
      const ref = this.refOf(symbol);
      if (!ref.ok) return ref;
      out.add(ref.value.category);
    }
    return ok([...out]);
  }

  private mapped<T>(result: SimResult<T>): Result<T, ExchangeFailure> {
    return result.ok ? result : err(failureOf(result.error));
  }

  /** A lookup: "does not exist" is an answer (undefined), not a failure. */
  private found<T>(result: SimResult<T>): Result<T | undefined, ExchangeFailure> {
    if (result.ok) return result;
    return result.error.code === UNKNOWN_ORDER_CODE ? ok(undefined) : err(failureOf(result.error));
  }
}
