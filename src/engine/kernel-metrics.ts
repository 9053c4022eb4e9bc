import { Counter, Gauge, Registry } from 'prom-client';
import type { BusEvent } from '../model/bus-events.js';

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
  readonly events: Counter<'type'>;
  readonly dropped: Counter<'strategy'>;
  readonly reconciliations: Counter<'outcome'>;
  readonly killSwitch: Gauge;
  readonly strategyFailures: Counter<'strategy'>;

  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    const r = [registry];
    this.ordersSubmitted = new Counter({ name: 'stratd_orders_submitted_total', help: 'Order commands accepted by the exchange', labelNames: ['strategy', 'symbol'], registers: r });
    this.fills = new Counter({ name: 'stratd_fills_total', help: 'Fills of the account', labelNames: ['strategy', 'symbol'], registers: r });
    this.intents = new Counter({ name: 'stratd_intents_total', help: 'Strategy intents by outcome (approved, denied)', labelNames: ['strategy', 'outcome'], registers: r });
    this.denials = new Counter({ name: 'stratd_intents_denied_total', help: 'Intents denied by the risk engine, by reason', labelNames: ['strategy', 'reason'], registers: r });
    this.commandFailures = new Counter({ name: 'stratd_command_failures_total', help: 'Commands refused by the exchange or settled as absent', labelNames: ['strategy', 'code'], registers: r });
    this.events = new Counter({ name: 'stratd_bus_events_total', help: 'Events on the bus by type', labelNames: ['type'], registers: r });
    this.dropped = new Counter({ name: 'stratd_bus_dropped_total', help: 'Market events conflated or dropped for a strategy that fell behind', labelNames: ['strategy'], registers: r });
    this.reconciliations = new Counter({ name: 'stratd_reconciliations_total', help: 'Reconciliation runs by outcome', labelNames: ['outcome'], registers: r });
    this.killSwitch = new Gauge({ name: 'stratd_kill_switch_engaged', help: '1 while the daily-loss kill switch halts opening orders', registers: r });
    this.strategyFailures = new Counter({ name: 'stratd_strategy_failures_total', help: 'Strategy instances stopped by an error', labelNames: ['strategy'], registers: r });
  }

  /** Counts one event; `ownerOf` attributes orders and fills to their strategy. */
  count(event: BusEvent, ownerOf: (clientOrderId: string) => string | undefined): void {
    this.events.inc({ type: event.type });
    switch (event.type) {
      case 'command.submitted':
        if (event.command.type === 'place-order' || event.command.type === 'place-algo') {
          this.ordersSubmitted.inc({ strategy: event.strategyId, symbol: event.command.symbol });
        }
        break;
      case 'command.failed':
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
      case 'strategy.stopped':
        if (event.failed) this.strategyFailures.inc({ strategy: event.strategyId });
        break;
      default:
        break;
    }
  }
}
