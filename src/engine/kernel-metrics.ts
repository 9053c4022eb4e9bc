import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { assertNever } from '../core/errors.js';
import type { BusEvent } from '../model/bus-events.js';
import { PendingCounts } from './pending-counts.js';
import { PendingObservations } from './pending-observations.js';
import { TickToOrder } from './tick-to-order.js';

/** Where an event came from, for `stratd_events_total{source}`. */
export type EventSource = 'market' | 'stream' | 'rest' | 'job' | 'kernel' | 'signal';

export interface KernelMetricsOptions {
  /**
   * Now on the exchange's clock (local clock + server offset). With it, the lag of events stamped by
   * the exchange (market data, stream account events) is observed at dispatch.
   */
  readonly exchangeNow?: () => number;
}

const LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The kernel's Prometheus metrics, all derived from the events that pass through it, so live, paper
 * and backtest runs count the same way. Labelled by strategy and symbol where that applies.
 */
export class KernelMetrics {
  readonly registry: Registry;
  readonly ordersSubmitted: Counter<'strategy' | 'symbol'>;
  readonly fills: Counter<'strategy' | 'symbol'>;
  readonly intents: Counter<'strategy' | 'outcome'>;
  readonly denials: Counter<'strategy' | 'reason'>;
  readonly commandFailures: Counter<'strategy' | 'code'>;
  /** Commands by type and outcome (submitted, failed with its code). */
  readonly commands: Counter<'command' | 'outcome' | 'code'>;
  readonly events: Counter<'type'>;
  readonly eventsBySource: Counter<'source'>;
  /** Exchange time of an event to its dispatch on the bus (only with `exchangeNow`). */
  readonly busLag: Histogram<'source'>;
  readonly dropped: Counter<'strategy'>;
  readonly reconciliations: Counter<'outcome'>;
  readonly killSwitch: Gauge;
  readonly protectionTripped: Gauge;
  readonly protectionTrips: Counter;
  readonly strategyFailures: Counter<'strategy'>;
  /** Positions (or parts) a strategy lost without an own fill: liquidation, auto-deleverage, unattributed. */
  readonly positionsLost: Counter<'strategy' | 'symbol' | 'cause'>;
  /** 1 while the order journal can be written; 0 while opening orders wait for it. */
  readonly journalWritable: Gauge;
  readonly journalWriteFailures: Counter;
  private journalFailuresSeen = 0;
  /** Every event is counted twice (by type, by source): in plain numbers, handed over at scrape. */
  private readonly eventCounts = new PendingCounts<'type'>();
  private readonly sourceCounts = new PendingCounts<'source'>();
  /** Approved intents and bus lags, counted before the event reaches the strategies: handed over at scrape. */
  private readonly approvedCounts = new PendingCounts<'strategy' | 'outcome'>();
  private readonly lags: PendingObservations<'source'>;
  /** Market data arrival to the order request it caused written to the socket. */
  readonly tickToOrder: TickToOrder;
  private readonly exchangeNow: (() => number) | undefined;

  constructor(registry: Registry = new Registry(), options: KernelMetricsOptions = {}) {
    this.registry = registry;
    this.exchangeNow = options.exchangeNow;
    const r = [registry];
    this.ordersSubmitted = new Counter({ name: 'stratd_orders_submitted_total', help: 'Order commands accepted by the exchange', labelNames: ['strategy', 'symbol'], registers: r });
    this.fills = new Counter({ name: 'stratd_fills_total', help: 'Fills of the account', labelNames: ['strategy', 'symbol'], registers: r });
    const approvedCounts = this.approvedCounts;
    this.intents = new Counter({
      name: 'stratd_intents_total',
      help: 'Strategy intents by outcome (approved, denied)',
      labelNames: ['strategy', 'outcome'],
      registers: r,
      collect() {
        approvedCounts.flush(this);
      },
    });
    this.denials = new Counter({ name: 'stratd_intents_denied_total', help: 'Intents denied by the risk engine, by reason', labelNames: ['strategy', 'reason'], registers: r });
    this.commandFailures = new Counter({ name: 'stratd_command_failures_total', help: 'Commands refused by the exchange or settled as absent', labelNames: ['strategy', 'code'], registers: r });
    this.commands = new Counter({
      name: 'stratd_commands_total',
      help: 'Exchange commands by type and outcome (submitted, or failed with the exchange code or failure kind)',
      labelNames: ['command', 'outcome', 'code'],
      registers: r,
    });
    const eventCounts = this.eventCounts;
    const sourceCounts = this.sourceCounts;
    this.events = new Counter({
      name: 'stratd_bus_events_total',
      help: 'Events on the bus by type',
      labelNames: ['type'],
      registers: r,
      collect() {
        eventCounts.flush(this);
      },
    });
    this.eventsBySource = new Counter({
      name: 'stratd_events_total',
      help: 'Events on the bus by source (market, stream, rest, job, kernel)',
      labelNames: ['source'],
      registers: r,
      collect() {
        sourceCounts.flush(this);
      },
    });
    this.busLag = new Histogram({
      name: 'stratd_bus_lag_seconds',
      help: 'Exchange time of an event to its dispatch on the bus (market data: includes the polling interval)',
      labelNames: ['source'],
      buckets: LAG_BUCKETS,
      registers: r,
      collect: () => this.lags.flush(),
    });
    this.lags = new PendingObservations(this.busLag);
    this.dropped = new Counter({ name: 'stratd_bus_dropped_total', help: 'Market events conflated or dropped for a strategy that fell behind', labelNames: ['strategy'], registers: r });
    this.reconciliations = new Counter({ name: 'stratd_reconciliations_total', help: 'Reconciliation runs by outcome', labelNames: ['outcome'], registers: r });
    this.killSwitch = new Gauge({ name: 'stratd_kill_switch_engaged', help: '1 while the kill switch (daily loss or operator halt) holds back opening orders', registers: r });
    this.protectionTripped = new Gauge({ name: 'stratd_protection_tripped', help: '1 while a protection (risk.protections) is tripped for its scope (global or a strategy id)', labelNames: ['protection', 'scope'], registers: r });
    this.protectionTrips = new Counter({ name: 'stratd_protection_trips_total', help: 'Times a protection tripped, by scope and action', labelNames: ['protection', 'scope', 'action'], registers: r });
    this.strategyFailures = new Counter({ name: 'stratd_strategy_failures_total', help: 'Strategy instances stopped by an error', labelNames: ['strategy'], registers: r });
    this.positionsLost = new Counter({ name: 'stratd_positions_lost_total', help: 'Positions or parts of them a strategy lost without an own fill (liquidation, adl, unattributed)', labelNames: ['strategy', 'symbol', 'cause'], registers: r });
    this.journalWritable = new Gauge({ name: 'stratd_journal_writable', help: '1 while the order journal can be written; 0 while writes fail (disk full, I/O error) and opening orders wait', registers: r });
    this.journalWritable.set(1);
    this.journalWriteFailures = new Counter({ name: 'stratd_journal_write_failures_total', help: 'Journal writes (orders and probes) that failed for a storage reason', registers: r });
    this.tickToOrder = new TickToOrder(registry);
  }

  /** An intent the risk engine approved (counted by plain number; see approvedCounts). */
  approved(strategy: string): void {
    this.approvedCounts.add(strategy, () => ({ strategy, outcome: 'approved' }));
  }

  /** The journal's health changed (executor). */
  journalHealth(state: { readonly writable: boolean; readonly failures: number }): void {
    this.journalWritable.set(state.writable ? 1 : 0);
    if (state.failures > this.journalFailuresSeen) this.journalWriteFailures.inc(state.failures - this.journalFailuresSeen);
    this.journalFailuresSeen = state.failures;
  }

  /** Counts one event; `ownerOf` attributes orders and fills to their strategy. */
  count(event: BusEvent, ownerOf: (clientOrderId: string) => string | undefined): void {
    const type = event.type;
    this.eventCounts.add(type, () => ({ type }));
    const source = sourceOf(event);
    this.sourceCounts.add(source, () => ({ source }));
    if (this.exchangeNow !== undefined && (source === 'market' || (source === 'stream' && event.type.startsWith('account.')))) {
      this.lags.add(source, () => ({ source }), Math.max(0, this.exchangeNow() - event.time) / 1000);
    }
    switch (event.type) {
      case 'command.submitted':
        this.commands.inc({ command: event.command.type, outcome: 'submitted', code: '' });
        if (event.command.type === 'place-order' || event.command.type === 'place-algo') {
          this.ordersSubmitted.inc({ strategy: event.strategyId, symbol: event.command.symbol });
        }
        break;
      case 'command.failed':
        this.commands.inc({ command: event.command.type, outcome: 'failed', code: event.failure.code });
        this.commandFailures.inc({ strategy: event.strategyId, code: event.failure.code });
        break;
      case 'account.fill':
        this.fills.inc({ strategy: ownerOf(event.fill.clientOrderId) ?? 'external', symbol: event.fill.symbol });
        break;
      case 'intent.denied':
        this.intents.inc({ strategy: event.strategyId, outcome: 'denied' });
        this.denials.inc({ strategy: event.strategyId, reason: event.denial.code });
        break;
      case 'bus.dropped':
        this.dropped.inc({ strategy: event.strategyId }, event.count);
        break;
      case 'risk.killSwitch':
        this.killSwitch.set(event.engaged ? 1 : 0);
        break;
      case 'risk.protection':
        this.protectionTripped.set({ protection: event.protection, scope: event.scopeKey }, event.tripped ? 1 : 0);
        if (event.tripped) this.protectionTrips.inc({ protection: event.protection, scope: event.scopeKey, action: event.action });
        break;
      case 'strategy.stopped':
        if (event.failed) this.strategyFailures.inc({ strategy: event.strategyId });
        break;
      case 'ledger.positionLost':
        this.positionsLost.inc({ strategy: event.strategyId, symbol: event.symbol, cause: event.cause });
        break;
      default:
        break;
    }
  }
}

/** Market data from the poller, the user stream, REST replies (executor, reconciliation, exchangeInfo), jobs, the kernel itself. */
export function sourceOf(event: BusEvent): EventSource {
  switch (event.type) {
    case 'market.book':
    case 'market.trade':
    case 'market.kline':
    case 'market.bookTicker':
    case 'market.ticker24h':
    case 'market.markPrice':
    case 'market.indexPrice':
    case 'market.fundingRate':
    case 'market.openInterest':
      return 'market';
    case 'account.order':
    case 'account.algo':
    case 'account.fill':
    case 'account.position':
    case 'account.balance':
    case 'account.funding':
      return event.source;
    case 'stream.connected':
    case 'stream.disconnected':
      return 'stream';
    case 'account.resynced':
    case 'instruments.loaded':
    case 'instrument.status':
    case 'command.submitted':
    case 'command.failed':
      return 'rest';
    case 'job.finished':
    case 'catalog.changed':
    case 'catalog.synced':
      return 'job';
    case 'intent.denied':
    case 'risk.killSwitch':
    case 'risk.protection':
    case 'strategy.started':
    case 'strategy.stopped':
    case 'timer':
    case 'bus.dropped':
    case 'ledger.positionLost':
    case 'ledger.claimed':
      return 'kernel';
    case 'signal.received':
      return 'signal';
    default:
      return assertNever(event, 'bus event');
  }
}
