import type { AccountEvent } from './account-events.js';
import type { CatalogEvent } from './catalog-events.js';
import type { KernelEvent } from './kernel-events.js';
import type { LedgerEvent } from './ledger.js';
import type { MarketEvent, MarketEventType } from './market-events.js';
import type { SignalEvent } from './signal-events.js';

/** Everything on the event bus: one readonly discriminated union on `type`. */
export type BusEvent = MarketEvent | AccountEvent | KernelEvent | CatalogEvent | SignalEvent | LedgerEvent;
export type BusEventType = BusEvent['type'];

/** Every market event type (the record makes the compiler list each one). */
const MARKET_TYPES: ReadonlySet<string> = new Set(
  Object.keys({
    'market.book': true,
    'market.trade': true,
    'market.kline': true,
    'market.bookTicker': true,
    'market.ticker24h': true,
    'market.markPrice': true,
    'market.indexPrice': true,
    'market.fundingRate': true,
    'market.openInterest': true,
  } satisfies Record<MarketEventType, true>),
);

/** Whether a value names a market event type (a strategy module's `marketEvents`, checked at load). */
export function isMarketEventType(type: unknown): type is MarketEventType {
  return typeof type === 'string' && MARKET_TYPES.has(type);
}

/** Asked of every event by the kernel and each strategy runner: a set lookup of the (internalized) type, not a prefix test. */
export function isMarketEvent(event: BusEvent): event is MarketEvent {
  return MARKET_TYPES.has(event.type);
}

export function isAccountEvent(event: BusEvent): event is AccountEvent {
  return event.type.startsWith('account.') && event.type !== 'account.resynced';
}
