import { assertNever } from '../core/errors.js';
import type { BusEvent } from '../model/bus-events.js';
import { GLOBAL_SCOPE } from '../model/protections.js';

/** Whose an order is (a method: the kernel's is one object of a class, the same function in every run of a sweep). */
export interface OrderOwnership {
  owns(clientOrderId: string, strategyId: string): boolean;
}

/** Which events a strategy instance receives: its symbols' market data, its own orders, account-wide state. */
export function interestedIn(event: BusEvent, strategyId: string, symbols: ReadonlySet<string>, orders: OrderOwnership): boolean {
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
      return symbols.has(event.symbol);
    case 'account.order':
    case 'account.algo':
      return symbols.has(event.order.symbol) && orders.owns(event.order.clientOrderId, strategyId);
    case 'account.fill':
      return symbols.has(event.fill.symbol) && orders.owns(event.fill.clientOrderId, strategyId);
    case 'account.position':
      return symbols.has(event.position.symbol);
    case 'account.funding':
      return symbols.has(event.funding.symbol);
    case 'instrument.status':
      return symbols.has(event.symbol);
    case 'intent.denied':
    case 'command.submitted':
    case 'command.failed':
    case 'strategy.stopped':
    case 'bus.dropped':
    case 'signal.received':
    case 'ledger.positionLost':
    case 'ledger.claimed':
      return event.strategyId === strategyId;
    case 'account.balance':
    case 'stream.connected':
    case 'stream.disconnected':
    case 'account.resynced':
    case 'instruments.loaded':
    case 'risk.killSwitch':
    case 'timer':
    case 'job.finished':
    case 'catalog.changed':
    case 'catalog.synced':
      return true;
    case 'risk.protection':
      return event.scopeKey === GLOBAL_SCOPE || event.scopeKey === strategyId;
    case 'strategy.started':
      // For the daemon's observers (the trade log): the strategy itself knows it started (onStart ran).
      return false;
    default:
      return assertNever(event, 'bus event');
  }
}
