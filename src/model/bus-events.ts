import type { AccountEvent } from './account-events.js';
import type { CatalogEvent } from './catalog-events.js';
import type { KernelEvent } from './kernel-events.js';
import type { LedgerEvent } from './ledger.js';
import type { MarketEvent } from './market-events.js';
import type { SignalEvent } from './signal-events.js';

/** Everything on the event bus: one readonly discriminated union on `type`. */
export type BusEvent = MarketEvent | AccountEvent | KernelEvent | CatalogEvent | SignalEvent | LedgerEvent;
export type BusEventType = BusEvent['type'];

export function isMarketEvent(event: BusEvent): event is MarketEvent {
  return event.type.startsWith('market.');
}

export function isAccountEvent(event: BusEvent): event is AccountEvent {
  return event.type.startsWith('account.') && event.type !== 'account.resynced';
}
