import { assertNever } from '../../core/errors.js';
import type { AccountEvent } from '../../model/account-events.js';
import type { SimVenue } from '../engine/sim-venue.js';
import { BalanceEvent } from '../engine/account-event-objects.js';
import type { AccountEvent as SimAccountEvent, BalanceChanged } from '../engine/types.js';
import type { BalanceFigures } from '../engine/views.js';
import { balanceFiguresLater } from '../engine/views.js';
import { algoSnapshotOf, balanceOfLaterFigures, fillOf, orderSnapshotOfEvent, positionOfEvent } from './snapshots.js';

/** The balance figures of a balance event's moment: the engine's own event carries them (no second capture of the account). */
function balanceFiguresOf(event: BalanceChanged, venue: SimVenue): () => BalanceFigures {
  return event instanceof BalanceEvent ? balanceFiguresLater(event.figures) : venue.futuresBalanceFigures({ userId: event.userId, category: event.category });
}

/**
 * One engine account event as the kernel's stream event (source 'stream', time = the engine's event
 * time `E`). The engine's balance event carries only free and locked; the in-process port takes the
 * complete balance (unrealized PnL included) from the engine at that moment instead, its decimals made
 * when first read.
 */
export function streamEventOf(event: SimAccountEvent, venue: SimVenue): AccountEvent {
  // The fields by name (no shared base spread in): one object per event, about 30,000 per backtest.
  const time = event.time;
  switch (event.type) {
    case 'order':
      return { type: 'account.order', source: 'stream', time, order: orderSnapshotOfEvent(event) };
    case 'plan':
      return { type: 'account.algo', source: 'stream', time, order: algoSnapshotOf(event.plan, time) };
    case 'trade':
      return { type: 'account.fill', source: 'stream', time, fill: fillOf(event.trade, event.amounts) };
    case 'position':
      return { type: 'account.position', source: 'stream', time, position: positionOfEvent(event) };
    case 'balance':
      return { type: 'account.balance', source: 'stream', time, balance: balanceOfLaterFigures(event.category, balanceFiguresOf(event, venue), time) };
    default:
      return assertNever(event, 'engine account event');
  }
}
