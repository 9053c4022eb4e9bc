import type { Clock } from '../../core/clock.js';
import type { BusEvent } from '../../model/bus-events.js';
import type { ExchangeCommand } from '../../model/commands.js';
import type { ExchangeFailure } from '../../model/exchange-port.js';
import type { AlgoOrderSnapshot, OrderSnapshot } from '../../model/orders.js';

/** What an exchange call answered: a regular order, a plan/TP-SL row, or nothing (cancel-all). */
export type Reply = { readonly kind: 'order'; readonly order: OrderSnapshot } | { readonly kind: 'algo'; readonly order: AlgoOrderSnapshot } | { readonly kind: 'none' };

/**
 * Where the executor's events go (the kernel's `ingest`): an object whose method is the same function in
 * every run, not a closure made per kernel, whose hot call sites the next backtest would deoptimize
 * ("wrong call target").
 */
export interface EventSink {
  ingest(event: BusEvent): void;
}

/** The executor's outlet onto the bus: REST knowledge as 'rest' account events, and commands' fate. */
export class ExecutionEvents {
  constructor(
    private readonly clock: Clock,
    private readonly bus: EventSink,
  ) {}

  order(order: OrderSnapshot): void {
    this.bus.ingest({ type: 'account.order', source: 'rest', time: this.clock.now(), order });
  }

  algo(order: AlgoOrderSnapshot): void {
    this.bus.ingest({ type: 'account.algo', source: 'rest', time: this.clock.now(), order });
  }

  reply(reply: Reply): void {
    if (reply.kind === 'order') this.order(reply.order);
    else if (reply.kind === 'algo') this.algo(reply.order);
  }

  submitted(strategyId: string, command: ExchangeCommand): void {
    this.bus.ingest({ type: 'command.submitted', time: this.clock.now(), strategyId, command });
  }

  failed(strategyId: string, command: ExchangeCommand, failure: ExchangeFailure): void {
    this.bus.ingest({ type: 'command.failed', time: this.clock.now(), strategyId, command, failure });
  }
}
