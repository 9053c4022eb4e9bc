import { assertNever } from '../../core/errors.js';
import type { AccountEvent } from '../../model/account-events.js';
import type { SimVenue } from '../engine/sim-venue.js';
import type { AccountEvent as SimAccountEvent } from '../engine/types.js';
import { algoSnapshotOf, balanceOfLaterFigures, fillOf, orderSnapshotOfEvent, positionOfEvent } from './snapshots.js';

/**
 * One engine account event as the kernel's stream event (source 'stream', time = the engine's event
 * time `E`). The engine's balance event carries only free and locked; the in-process port takes the
 * complete balance (unrealized PnL included) from the engine at that moment instead, its decimals made
 * when first read.
 */
export function streamEventOf(event: SimAccountEvent, venue: SimVenue): AccountEvent {
  const base = { source: 'stream', time: event.time } as const;
  switch (event.type) {
    case 'order':
      return { type: 'account.order', ...base, order: orderSnapshotOfEvent(event) };
    case 'plan':
      return { type: 'account.algo', ...base, order: algoSnapshotOf(event.plan, event.time) };
    case 'trade':
      return { type: 'account.fill', ...base, fill: fillOf(event.trade, event.amounts) };
    case 'position':
      return { type: 'account.position', ...base, position: positionOfEvent(event) };
    case 'balance':
      return { type: 'account.balance', ...base, balance: balanceOfLaterFigures(event.category, venue.futuresBalanceFigures({ userId: event.userId, category: event.category }), event.time) };
    default:
      return assertNever(event, 'engine account event');
  }
}
